/**
 * Public out-of-band application security testing (OAST) services: a lookup of or request to one of their
 * names means something (a scanner's payload, an exploited server) called back to a tester's listener.
 * Keys are registered domains; values name the service for `wisdom.labels` (`oast:<service>`).
 * Left out on purpose: webhook/integration platforms with everyday production use (pipedream.net endpoints,
 * webhook.site), where a callback host says nothing about exploitation; both are in the popularity rankings.
 */
export const OAST_SERVICES: Readonly<Record<string, string>> = {
  // ProjectDiscovery interactsh default servers
  'oast.pro': 'interactsh',
  'oast.live': 'interactsh',
  'oast.site': 'interactsh',
  'oast.online': 'interactsh',
  'oast.fun': 'interactsh',
  'oast.me': 'interactsh',
  'interact.sh': 'interactsh',
  // PortSwigger Burp Collaborator
  'burpcollaborator.net': 'burp-collaborator',
  'oastify.com': 'burp-collaborator',
  // Thinkst Canarytokens
  'canarytokens.com': 'canarytokens',
  'canarytokens.org': 'canarytokens',
  // DNS/HTTP request loggers used for blind-injection testing
  'dnslog.cn': 'dnslog',
  'ceye.io': 'ceye',
  'requestbin.net': 'requestbin',
  'requestrepo.com': 'requestrepo',
  // Acunetix AcuMonitor
  'bxss.me': 'acunetix',
};
