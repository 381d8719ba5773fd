/**
 * Paste and anonymous file-drop services that malware uses to stage its next stage or configuration, keyed by
 * registered domain (or a host under it). `raw`: the path of raw content, which a person reading a paste in
 * a browser does not request; `always`: the service serves raw content only (command-line drops), so any
 * request counts. Code hosting (GitHub gists, raw.githubusercontent.com) is left out: developers fetch raw
 * files from it all day.
 */
export interface PasteService {
  name: string;
  raw: RegExp | 'always';
}

export const PASTE_SERVICES: Readonly<Record<string, PasteService>> = {
  'pastebin.com': { name: 'Pastebin', raw: /^\/(?:raw|dl)\// },
  'pastebin.pl': { name: 'pastebin.pl', raw: /^\/view\/raw\// },
  'paste.ee': { name: 'Paste.ee', raw: /^\/[rd]\// },
  'hastebin.com': { name: 'Hastebin', raw: /^\/raw\// },
  'toptal.com': { name: 'Hastebin (Toptal)', raw: /^\/developers\/hastebin\/raw\// },
  'rentry.co': { name: 'Rentry', raw: /^\/[^/]+\/raw\/?$/ },
  'rentry.org': { name: 'Rentry', raw: /^\/[^/]+\/raw\/?$/ },
  'textbin.net': { name: 'Textbin', raw: /^\/raw\// },
  'controlc.com': { name: 'ControlC', raw: /^\/raw\// },
  'dpaste.com': { name: 'dpaste', raw: /\.txt$/ },
  'dpaste.org': { name: 'dpaste', raw: /\/raw\/?$/ },
  'paste.rs': { name: 'paste.rs', raw: 'always' },
  'termbin.com': { name: 'termbin', raw: 'always' },
  'ix.io': { name: 'ix.io', raw: 'always' },
  'sprunge.us': { name: 'sprunge', raw: 'always' },
  '0x0.st': { name: '0x0.st', raw: 'always' },
  'transfer.sh': { name: 'transfer.sh', raw: 'always' },
  'temp.sh': { name: 'temp.sh', raw: 'always' },
  'bashupload.com': { name: 'bashupload', raw: 'always' },
  'file.io': { name: 'file.io', raw: /^\/[A-Za-z0-9]{6,}$/ },
};
