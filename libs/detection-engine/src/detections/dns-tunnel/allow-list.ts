/**
 * Zones whose names legitimately carry long random labels and in which nobody outside the operator can
 * delegate a subzone (so they cannot host a tunnel): CDN and cloud edge names, anti-virus reputation
 * look-ups (file/URL hashes encoded in the query) and DNS block lists. Matched against the full query name.
 * Each entry was either seen with 10+ random-looking names in the popular-host lists of the test data
 * (amazonaws.com, on.aws, azure.com, azure.net; sentry.io's numbered `o<org id>.ingest` hosts) or is a
 * documented lookup service.
 */
export const DNS_TUNNEL_ALLOW_LIST: readonly string[] = [
  // CDN / cloud edge and load balancers
  'akamai.net',
  'akamaiedge.net',
  'akamaihd.net',
  'akadns.net',
  'edgekey.net',
  'edgesuite.net',
  'cloudfront.net',
  'amazonaws.com',
  'on.aws',
  'a2z.com',
  'awsglobalaccelerator.com',
  'azure.com',
  'azure.net',
  'azurefd.net',
  'azureedge.net',
  'cloudapp.net',
  'trafficmanager.net',
  'windows.net',
  'msedge.net',
  'googleapis.com',
  'googleusercontent.com',
  'gvt1.com',
  '1e100.net',
  'cloudflare.net',
  'fastly.net',
  'fastlylb.net',
  'aliyuncs.com',
  // SaaS whose host names carry numeric ids (one counter-shaped label per customer organisation)
  'sentry.io',
  // anti-virus / reputation look-ups over DNS
  'avts.mcafee.com',
  'avqs.mcafee.com',
  'sophosxl.net',
  'e5.sk',
  'senderbase.org',
  'brightcloud.com',
  // DNS block lists
  'spamhaus.org',
  'spamhaus.net',
  'spamcop.net',
  'surbl.org',
  'uribl.com',
  'sorbs.net',
  'barracudacentral.org',
  'mailspike.net',
  'dnswl.org',
  'abuseat.org',
];
