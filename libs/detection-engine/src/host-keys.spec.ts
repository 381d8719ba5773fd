import { internedHostKey } from './host-keys';

describe('internedHostKey', () => {
  it('is the workspace and the endpoint joined by NUL, the same for a host every time it is asked', () => {
    const first = internedHostKey('ws-1', '10.0.0.7');
    expect(first).toBe('ws-1\u000010.0.0.7');
    expect(internedHostKey('ws-1', ['10', '0', '0', '7'].join('.'))).toBe(first);
    expect(internedHostKey('ws-2', '10.0.0.7')).toBe('ws-2\u000010.0.0.7');
    expect(internedHostKey('ws-1', 'host:laptop-7')).toBe('ws-1\u0000host:laptop-7');
  });

  it('still answers correctly once more hosts and workspaces came than it remembers', () => {
    for (let w = 0; w < 1_100; w++) expect(internedHostKey(`w${w}`, 'h')).toBe(`w${w}\u0000h`);
    for (let h = 0; h < 70_000; h++) internedHostKey('busy', `10.1.${h >> 8}.${h & 255}`);
    expect(internedHostKey('busy', '10.1.0.1')).toBe('busy\u000010.1.0.1');
    expect(internedHostKey('w0', 'h')).toBe('w0\u0000h');
  });
});
