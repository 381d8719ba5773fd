import { isZipContentType, parseUploadOptions } from './upload-params';

describe('parseUploadOptions', () => {
  it('defaults to merge without dry run', () => {
    expect(parseUploadOptions({})).toEqual({ mode: 'merge', dryRun: false });
    expect(parseUploadOptions({ import_mode: 'replace', dry_run: 'true' })).toEqual({ mode: 'replace', dryRun: true });
  });

  it('names invalid values', () => {
    expect(parseUploadOptions({ import_mode: 'append' })).toBe('import_mode "append" is not supported; use merge (default) or replace');
    expect(parseUploadOptions({ dry_run: 'yes' })).toBe('dry_run "yes" is not a boolean; use true or false (default)');
    expect(parseUploadOptions({ dry_run: ['true', 'false'] })).toBe('dry_run must be given once');
  });
});

describe('isZipContentType', () => {
  it('accepts application/zip with parameters, refuses others', () => {
    expect(isZipContentType('Application/Zip; charset=binary')).toBe(true);
    expect(isZipContentType('application/x-zip-compressed')).toBe(true);
    expect(isZipContentType('application/json')).toBe(false);
    expect(isZipContentType(undefined)).toBe(false);
  });
});
