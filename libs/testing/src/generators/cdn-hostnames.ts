import type { Rng } from '../prng';

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const AWS_REGIONS = ['us-east-1', 'us-east-2', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'ap-northeast-1', 'sa-east-1'];
const SITE_WORDS = ['shop', 'static', 'media', 'assets', 'web', 'app', 'cdn', 'img', 'content', 'portal', 'files', 'prod', 'www', 'api', 'store'];

function ipDashed(rng: Rng): string {
  return `${rng.int(3, 223)}-${rng.int(0, 255)}-${rng.int(0, 255)}-${rng.int(1, 254)}`;
}

/**
 * Host names of cloud and CDN providers as browsers and apps look them up, with the provider-generated labels
 * that look random: CloudFront distributions, EC2 and load-balancer names, Google user-content hosts, Akamai edge
 * hosts, Azure CDN / Front Door endpoints, Fastly, AWS Lambda function URLs and Global Accelerator.
 */
export function cdnHostname(rng: Rng): string {
  switch (rng.weighted([['cloudfront', 30], ['ec2', 15], ['elb', 8], ['googleusercontent', 15], ['akamai', 15], ['azure', 12], ['fastly', 5], ['aws-assigned', 4]] as const)) {
    case 'cloudfront':
      return `d${rng.string(ALNUM, 13)}.cloudfront.net`;
    case 'aws-assigned':
      return rng.chance(0.5)
        ? `${rng.string(ALNUM, 32)}.lambda-url.${rng.pick(AWS_REGIONS)}.on.aws`
        : `a${rng.string('0123456789abcdef', 16)}.awsglobalaccelerator.com`;
    case 'ec2':
      return rng.chance(0.5) ? `ec2-${ipDashed(rng)}.compute-1.amazonaws.com` : `ec2-${ipDashed(rng)}.${rng.pick(AWS_REGIONS)}.compute.amazonaws.com`;
    case 'elb':
      return `${rng.pick(SITE_WORDS)}-${rng.pick(SITE_WORDS)}-${rng.int(100000000, 2099999999)}.${rng.pick(AWS_REGIONS)}.elb.amazonaws.com`;
    case 'googleusercontent':
      return rng.weighted([
        [`lh${rng.int(3, 6)}.googleusercontent.com`, 4],
        [`${rng.string(ALNUM, 32)}-apidata.googleusercontent.com`, 1],
        [`doc-${rng.string(ALNUM, 2)}-${rng.string(ALNUM, 2)}-docs.googleusercontent.com`, 2],
        [`${rng.string('0123456789', 12)}-${rng.string(ALNUM, 32)}.apps.googleusercontent.com`, 1],
      ]);
    case 'akamai':
      return rng.weighted([
        [`e${rng.int(1, 99999)}.${rng.pick(['a', 'b', 'c', 'd', 'dscx', 'dscb', 'dsca', 'x'])}.akamaiedge.net`, 3],
        [`a${rng.int(1, 1999)}.${rng.pick(['dscb', 'dscg', 'dsce', 'g', 'e', 'w10', 'b'])}.akamai.net`, 2],
        [`${rng.pick(SITE_WORDS)}${rng.int(1, 99)}.${rng.pick(['edgekey.net', 'edgesuite.net', 'akamaized.net'])}`, 1],
      ]);
    case 'azure':
      return rng.chance(0.5)
        ? `${rng.pick(SITE_WORDS)}-${rng.string(ALNUM, rng.int(6, 12))}.azureedge.net`
        : `${rng.pick(SITE_WORDS)}-${rng.string('abcdefgh0123456789', 16)}.z0${rng.int(1, 3)}.azurefd.net`;
    default:
      return rng.chance(0.5) ? `${rng.pick(SITE_WORDS)}.global.ssl.fastly.net` : `${rng.string('abcdefghijklmnopqrstuvwxyz', 1)}.sni.${rng.int(1, 99)}.fastly.net`;
  }
}
