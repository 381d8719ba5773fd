import { allowedMethods } from './route-table';

describe('allowedMethods', () => {
  it('derives the methods of a concrete path from the OpenAPI document', () => {
    expect(allowedMethods('/v1/events/dns')).toEqual(['POST']);
    expect(allowedMethods('/v1/findings')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(allowedMethods('/v1/findings/')).toEqual(expect.arrayContaining(['GET']));
    expect(allowedMethods('/v1/nowhere')).toEqual([]);
    expect(allowedMethods('/v1/findings/extra')).toEqual([]);
  });
});
