/**
 * CDN and cloud zones that popular sites and software serve content from. The popularity rankings count
 * sites, so these rarely appear in them. Only the policy detection (scripting clients) treats them as known:
 * anyone can put a file on most of them, so executable downloads and built-in downloaders stay reported.
 */
export const CONTENT_INFRASTRUCTURE_ZONES: readonly string[] = [
  'akamai.net',
  'akamaihd.net',
  'akamaized.net',
  'akamaiedge.net',
  'edgekey.net',
  'edgesuite.net',
  'cloudfront.net',
  'amazonaws.com',
  'googleapis.com',
  'googleusercontent.com',
  'gvt1.com',
  'githubusercontent.com',
  'azureedge.net',
  'msecnd.net',
  'fastly.net',
  'fastlylb.net',
  'cloudflare.net',
];
