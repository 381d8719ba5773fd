/**
 * Zones of cloud and CDN providers whose host labels the provider generates (CloudFront distribution ids
 * `d1a2b3c4d5e6f7.cloudfront.net`, EC2 names `ec2-3-4-5-6.compute-1.amazonaws.com`, Lambda function URLs, Azure CDN
 * endpoints, Akamai edge hosts). The public suffix list makes many of them registrable, so their random-looking labels would
 * reach the DGA model; but nobody can register a name of their choosing there, which is what a DGA needs, so
 * they are not scored. Dynamic-DNS zones (duckdns.org, ddns.net, ...) are not here: their labels are chosen
 * by whoever registers them, DGAs included.
 */
export const PROVIDER_ASSIGNED_ZONES: readonly string[] = [
  'cloudfront.net',
  'amazonaws.com',
  'amazonaws.com.cn',
  // AWS Lambda function URLs (`<url id>.lambda-url.<region>.on.aws`) and Global Accelerator (`a<hex>.awsglobalaccelerator.com`).
  'on.aws',
  'awsglobalaccelerator.com',
  'azureedge.net',
  'azurefd.net',
  'trafficmanager.net',
  'cloudapp.net',
  'cloudapp.azure.com',
  'googleusercontent.com',
  'akamai.net',
  'akamaiedge.net',
  'akamaihd.net',
  'akamaized.net',
  'edgekey.net',
  'edgesuite.net',
  'fastly.net',
  'fastlylb.net',
];

/** The provider zone a registered domain lies in (`cloudfront.net`), or undefined. */
export function providerAssignedZone(registeredDomain: string): string | undefined {
  for (const zone of PROVIDER_ASSIGNED_ZONES) {
    if (registeredDomain === zone || (registeredDomain.endsWith(zone) && registeredDomain.charCodeAt(registeredDomain.length - zone.length - 1) === 46)) return zone;
  }
  return undefined;
}
