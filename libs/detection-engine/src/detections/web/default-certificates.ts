/**
 * Certificates nobody should meet on a production Internet server: the values software fills in when an
 * operator accepts the defaults, placeholders from documentation, test CAs, interception-proxy CAs, and the
 * stock certificate of a C2 framework. Matched exactly (case-insensitive) against one attribute of the
 * subject or issuer.
 */
export type DefaultCertificateKind = 'placeholder' | 'test-ca' | 'interception' | 'c2-framework';

export interface DefaultCertificateMark {
  /** Where to look: the certificate's subject or its issuer. */
  field: 'subject' | 'issuer';
  attribute: 'CN' | 'O' | 'OU';
  /** Lower-case value; a trailing '*' matches any value with that prefix. */
  value: string;
  kind: DefaultCertificateKind;
  /** What it is, for the finding's description. */
  label: string;
  /** For `c2-framework`: the family, reported as the label `c2:<family>`. */
  family?: string;
}

export const DEFAULT_CERTIFICATE_MARKS: readonly DefaultCertificateMark[] = [
  { field: 'subject', attribute: 'O', value: 'internet widgits pty ltd', kind: 'placeholder', label: 'OpenSSL default organisation' },
  { field: 'subject', attribute: 'O', value: 'default company ltd', kind: 'placeholder', label: 'OpenSSL (Red Hat) default organisation' },
  { field: 'subject', attribute: 'O', value: 'someorganization', kind: 'placeholder', label: 'Apache mod_ssl default certificate' },
  { field: 'subject', attribute: 'OU', value: 'someorganizationalunit', kind: 'placeholder', label: 'Apache mod_ssl default certificate' },
  { field: 'subject', attribute: 'O', value: 'acme co', kind: 'placeholder', label: 'Go crypto/tls example certificate' },
  { field: 'subject', attribute: 'CN', value: 'localhost', kind: 'placeholder', label: 'certificate for localhost' },
  { field: 'subject', attribute: 'CN', value: 'localhost.localdomain', kind: 'placeholder', label: 'certificate for localhost' },
  { field: 'subject', attribute: 'CN', value: 'example.com', kind: 'placeholder', label: 'documentation placeholder name' },
  { field: 'subject', attribute: 'CN', value: 'www.example.com', kind: 'placeholder', label: 'documentation placeholder name' },
  { field: 'subject', attribute: 'CN', value: 'example.org', kind: 'placeholder', label: 'documentation placeholder name' },
  { field: 'subject', attribute: 'CN', value: 'example.net', kind: 'placeholder', label: 'documentation placeholder name' },
  { field: 'subject', attribute: 'CN', value: 'test', kind: 'placeholder', label: 'test certificate' },
  { field: 'subject', attribute: 'CN', value: 'kubernetes ingress controller fake certificate', kind: 'placeholder', label: 'ingress-nginx default certificate' },
  { field: 'subject', attribute: 'CN', value: 'traefik default cert', kind: 'placeholder', label: 'Traefik default certificate' },
  { field: 'issuer', attribute: 'CN', value: '(staging) *', kind: 'test-ca', label: "Let's Encrypt staging CA" },
  { field: 'issuer', attribute: 'CN', value: 'fake le *', kind: 'test-ca', label: "Let's Encrypt staging CA" },
  { field: 'issuer', attribute: 'CN', value: 'portswigger ca', kind: 'interception', label: 'Burp Suite interception CA' },
  { field: 'issuer', attribute: 'O', value: 'mitmproxy', kind: 'interception', label: 'mitmproxy interception CA' },
  { field: 'subject', attribute: 'CN', value: 'major cobalt strike', kind: 'c2-framework', label: 'Cobalt Strike default team-server certificate', family: 'Cobalt Strike' },
  { field: 'subject', attribute: 'O', value: 'cobaltstrike', kind: 'c2-framework', label: 'Cobalt Strike default team-server certificate', family: 'Cobalt Strike' },
];

export function markMatches(mark: DefaultCertificateMark, value: string): boolean {
  const folded = value.trim().toLowerCase();
  return mark.value.endsWith('*') ? folded.startsWith(mark.value.slice(0, -1)) : folded === mark.value;
}
