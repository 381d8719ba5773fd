import { urlHost } from './url-host';

describe('urlHost', () => {
  it.each<[string, string | undefined]>([
    ['http://example.com/path', 'example.com'],
    ['https://User:pw@WWW.Example.COM:8443/a?b#c', 'www.example.com'],
    ['example.com/path', 'example.com'],
    ['example.com', 'example.com'],
    ['example.com:8080/x', 'example.com'],
    ['//cdn.example.com/lib.js', 'cdn.example.com'],
    ['EXAMPLE.org./', 'example.org'],
    ['http://[2001:DB8::1]:8080/', '2001:db8::1'],
    ['10.0.0.1:3128', '10.0.0.1'],
    ['ftp://files.example.net/x', 'files.example.net'],
    ['bücher.example/x', 'xn--bcher-kva.example'],
    ['  ', undefined],
    ['', undefined],
    ['http://', undefined],
    ['http://exa mple.com/', undefined],
  ])('%j -> %j', (url, host) => {
    expect(urlHost(url)).toBe(host);
  });
});
