import type { HttpEvent, IpEvent, TlsEvent } from '@vigil/contracts';
import type { IndicatorMatch } from '../../intel/indicator';
import { registeredDomain } from '../../domain';
import { canonicalIp } from '../../intel/normalise';
import type { ObservedEvent } from '../detection';
import type { EventIntel } from './event-intel';
import * as D from './intel-definitions';
import type { IntelRule, IntelVerdict } from './intel-rule-detector';

const ALL = ['dns', 'http', 'ip', 'tls'] as const;
const FLOWS = ['ip', 'tls'] as const;
const NAMES = ['dns', 'http'] as const;

const NO_MATCHES: readonly IndicatorMatch[] = Object.freeze([]);

/**
 * The event's matches that `keep` accepts. Every rule asks this of every event and most events match
 * nothing, so an empty answer is shared instead of allocated.
 */
function matchesWhere(intel: EventIntel, keep: (m: IndicatorMatch) => boolean): readonly IndicatorMatch[] {
  return intel.matches.length === 0 ? NO_MATCHES : intel.matches.filter(keep);
}

// A loop, not a filter with a closure over `category`: the closure's context would be allocated on every call.
function byCategory(intel: EventIntel, category: string): readonly IndicatorMatch[] {
  if (intel.matches.length === 0) return NO_MATCHES;
  const out: IndicatorMatch[] = [];
  for (const m of intel.matches) if (m.category === category) out.push(m);
  return out;
}

const isTorDomain = (m: IndicatorMatch): boolean => m.category === 'tor' && m.kind === 'domain';
const isTorRelay = (m: IndicatorMatch): boolean => m.category === 'tor' && m.kind !== 'domain';
const isTunnelAddress = (m: IndicatorMatch): boolean => m.category === 'tunnel' && m.kind !== 'domain';
const isResolverAddress = (m: IndicatorMatch): boolean => (m.category === 'resolver' || m.category === 'doh') && m.kind !== 'domain';

function uniqueLabels(matches: readonly IndicatorMatch[]): string[] {
  return [...new Set(matches.map((m) => m.label))];
}

function kindName(kind: IndicatorMatch['kind']): string {
  return { domain: 'domain', ip: 'address', cidr: 'network', ip_port: 'address:port', url: 'URL', ja3: 'JA3', ja3s: 'JA3S', cert: 'certificate' }[kind];
}

/** Verdict for the first (most specific) match, naming indicator, family and source. */
function indicatorVerdict(matches: readonly IndicatorMatch[], what: string, consequence: string): IntelVerdict | undefined {
  if (matches.length === 0) return undefined;
  const first = matches[0];
  const families = [...new Set(matches.map((m) => m.family))];
  const sources = [...new Set(matches.map((m) => m.source))];
  return {
    key: first.indicator,
    labels: uniqueLabels(matches),
    observations: matches.map((m) => `${m.kind} ${m.indicator} ${m.label} (${m.source})`),
    reason:
      `matches ${what} ${kindName(first.kind)} indicator ${first.indicator} ` +
      `(family ${families.join(', ')}; source ${sources.join(', ')}): ${consequence}`,
  };
}

export const c2Rule: IntelRule = {
  definition: D.INTEL_C2,
  types: ALL,
  judge: (intel) => indicatorVerdict(byCategory(intel, 'c2'), 'the C2', 'the host is likely infected and calling its controller'),
};

export const sinkholeRule: IntelRule = {
  definition: D.INTEL_SINKHOLE,
  types: ALL,
  judge: (intel) =>
    indicatorVerdict(
      byCategory(intel, 'sinkhole'),
      'the sinkhole',
      'malware on the host tried to reach C2 infrastructure that researchers have taken over',
    ),
};

export const maliciousRule: IntelRule = {
  definition: D.INTEL_MALICIOUS,
  types: ALL,
  judge: (intel) =>
    indicatorVerdict(byCategory(intel, 'malicious'), 'the malicious-site', 'the host visited infrastructure used to deliver malware or steal credentials'),
};

/** Ports Stratum mining proxies and pools use and ordinary services rarely do. */
export const STRATUM_PORTS: ReadonlySet<number> = new Set([3333, 3334, 3335, 3336, 5730, 7777, 14433, 14444, 45560, 45700]);

export const miningRule: IntelRule = {
  definition: D.INTEL_MINING,
  types: ALL,
  judge: (intel, observed) => {
    const pools = indicatorVerdict(byCategory(intel, 'miner'), 'the mining', 'the host is mining cryptocurrency, often a sign of cryptojacking malware');
    if (pools !== undefined) return pools;
    if (observed.type !== 'ip' || intel.destPort === undefined) return undefined;
    const app = (observed.event as IpEvent).app;
    const stratumApp = typeof app === 'string' && /stratum/i.test(app);
    if (!stratumApp && !STRATUM_PORTS.has(intel.destPort)) return undefined;
    return {
      key: `stratum:${intel.destPort}`,
      labels: ['miner:stratum'],
      observations: [stratumApp ? `application ${app}` : `port ${intel.destPort}`],
      reason: stratumApp
        ? `speaks the Stratum mining protocol (${app}): the host is mining cryptocurrency`
        : `uses port ${intel.destPort}, a Stratum mining-pool port: the host may be mining cryptocurrency`,
    };
  },
};

/** IRC server ports (RFC 7194 and the traditional 6660-6669 range). */
export const IRC_PORTS: ReadonlySet<number> = new Set([6660, 6661, 6662, 6663, 6664, 6665, 6666, 6667, 6668, 6669, 6697]);

export const ircRule: IntelRule = {
  definition: D.INTEL_IRC,
  types: FLOWS,
  judge: (intel, observed) => {
    const app = (observed.event as IpEvent).app;
    const ircApp = typeof app === 'string' && /^irc/i.test(app);
    if (!ircApp && (intel.destPort === undefined || !IRC_PORTS.has(intel.destPort))) return undefined;
    return {
      key: `${intel.destIp ?? '?'}:${intel.destPort ?? '?'}`,
      labels: ['irc:server'],
      observations: [ircApp ? `application ${app}` : `port ${intel.destPort}`],
      reason: `${ircApp ? `speaks IRC (${app})` : `uses IRC port ${intel.destPort}`}: IRC is rare in business networks and a classic botnet control channel`,
    };
  },
};

export const torDnsRule: IntelRule = {
  definition: D.INTEL_TOR_DNS,
  types: NAMES,
  judge: (intel) => {
    const name = intel.hostname;
    if (name === undefined) return undefined;
    if (name === 'onion' || name.endsWith('.onion')) {
      const service = name.split('.').slice(-2).join('.');
      return {
        key: service,
        labels: ['tor:onion'],
        observations: [`onion service ${service}`],
        reason: 'names a Tor hidden service, which only resolves inside Tor: software on the host expects to reach Tor (ransomware, stealers, Tor clients)',
      };
    }
    return indicatorVerdict(
      matchesWhere(intel, isTorDomain),
      'the tor2web',
      'tor2web gateways reach Tor hidden services from the clear web, as malware does to avoid running Tor',
    );
  },
};

/** Tor link certificates: subject `CN=www.<random>.net`, issuer `CN=www.<random>.com`, random base32 labels. */
const TOR_CERT_NAME = /^CN=www\.[a-z2-7]{8,20}\.(net|com)$/;

export function isTorStyleCertificate(tls: Partial<TlsEvent>): boolean {
  if (typeof tls.subject !== 'string' || typeof tls.issuer !== 'string') return false;
  const subject = TOR_CERT_NAME.exec(tls.subject.trim());
  const issuer = TOR_CERT_NAME.exec(tls.issuer.trim());
  return subject !== null && issuer !== null && subject[1] === 'net' && issuer[1] === 'com';
}

export const torCircuitRule: IntelRule = {
  definition: D.INTEL_TOR_CIRCUIT,
  types: FLOWS,
  judge: (intel, observed) => {
    const relays = matchesWhere(intel, isTorRelay);
    if (relays.length > 0) {
      return indicatorVerdict(relays, 'the Tor relay', 'the host builds Tor circuits, which hide where its traffic goes');
    }
    if (observed.type !== 'tls' || !isTorStyleCertificate(observed.event as TlsEvent)) return undefined;
    const tls = observed.event as TlsEvent;
    return {
      key: 'tor-certificate',
      labels: ['tor:relay'],
      observations: [`subject ${tls.subject}`, `issuer ${tls.issuer}`],
      reason: `presents a Tor link certificate (subject ${tls.subject}, issuer ${tls.issuer}, random www names): the host connects to a Tor relay`,
    };
  },
};

const TELEGRAM_BOT_PATH = /^\/bot\d+:[A-Za-z0-9_-]+\//;

export const telegramRule: IntelRule = {
  definition: D.INTEL_TELEGRAM,
  types: NAMES,
  judge: (intel, observed) => {
    const api = intel.matches.find((m) => m.label === 'telegram:bot-api');
    if (api === undefined) return undefined;
    let botCall = false;
    if (observed.type === 'http') {
      const url = (observed.event as HttpEvent).url;
      const path = typeof url === 'string' ? url.replace(/^[a-z]+:\/\/[^/]+|^[^/]+/i, '') : '';
      botCall = TELEGRAM_BOT_PATH.test(path);
    }
    return {
      key: api.indicator,
      labels: [api.label],
      observations: [`${api.kind} ${api.indicator} ${api.label} (${api.source})`, ...(botCall ? ['bot method call'] : [])],
      reason:
        `${botCall ? 'calls a bot method of' : 'names'} the Telegram Bot API (${api.indicator}; source ${api.source}): ` +
        'stealers and RATs use Telegram bots to take commands and send stolen data',
    };
  },
};

/** The provider's own web and update hosts under a dynamic DNS zone: ordinary use of the provider. */
const DYNAMIC_DNS_PROVIDER_HOSTS: ReadonlySet<string> = new Set([
  'checkip.dyndns.org',
  'checkip.dyndns.com',
  'members.dyndns.org',
  'dynupdate.no-ip.com',
]);

/**
 * Matches of `category` that name a host under a zone, not the zone's own site: a zone listed as a registered
 * domain (`duckdns.org`, `ngrok.io`) matches only names below it other than `www`; a listed host name
 * (`tunnel.us.ngrok.com`) matches itself too.
 */
/** A host name below a registered domain, as opposed to a zone (a registered domain, or a public suffix like duckdns.org). */
function isListedHost(indicator: string): boolean {
  const domain = registeredDomain(indicator);
  return domain !== undefined && domain !== indicator;
}

function hostedUnder(intel: EventIntel, category: string): readonly IndicatorMatch[] {
  const name = intel.hostname;
  if (name === undefined || intel.matches.length === 0) return NO_MATCHES;
  const out: IndicatorMatch[] = [];
  for (const m of intel.matches) {
    if (m.category !== category || m.kind !== 'domain') continue;
    if (isListedHost(m.indicator) || (name !== m.indicator && name !== `www.${m.indicator}`)) out.push(m);
  }
  return out;
}

export const dynamicDnsRule: IntelRule = {
  definition: D.INTEL_DYNAMIC_DNS,
  types: NAMES,
  judge: (intel) => {
    if (intel.hostname !== undefined && DYNAMIC_DNS_PROVIDER_HOSTS.has(intel.hostname)) return undefined;
    return indicatorVerdict(
      hostedUnder(intel, 'freedns'),
      'the dynamic DNS',
      'dynamic DNS hosts are free, anonymous and a common home for C2 and phishing',
    );
  },
};

export const tunnelServiceRule: IntelRule = {
  definition: D.INTEL_TUNNEL_SERVICE,
  types: ALL,
  judge: (intel) =>
    intel.matches.length === 0
      ? undefined
      : indicatorVerdict(
          [...hostedUnder(intel, 'tunnel'), ...matchesWhere(intel, isTunnelAddress)],
          'the tunnelling-service',
          'such services expose internal hosts to the Internet or relay C2 past the firewall',
        ),
};

export const DOT_PORT = 853;
const HTTPS_PORT = 443;

/** RFC 8484 `/dns-query` (every major resolver's template) and Google's JSON `/resolve`. */
const DOH_PATH = /^\/(?:dns-query|resolve)(?:[/?]|$)/i;
/** Response types of DoH: wire format (RFC 8484) and the JSON API. */
const DOH_CONTENT_TYPE = /^application\/dns-(?:message|json)\b/i;

/**
 * Why an HTTP request to a DoH resolver's host is itself name resolution: a DoH path or media type, or a proxy
 * log of an opaque tunnel (`CONNECT`, or a URL with no path). A GET of the provider's web page is not.
 */
function dohHttpEvidence(event: Partial<HttpEvent>): string | undefined {
  if (typeof event.method === 'string' && event.method.toUpperCase() === 'CONNECT') return 'CONNECT tunnel';
  if (typeof event.contentType === 'string' && DOH_CONTENT_TYPE.test(event.contentType)) return `content type ${event.contentType}`;
  if (typeof event.url !== 'string') return undefined;
  const path = event.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*|^[^/?#]*/i, '');
  if (path === '' || path === '/') return path === '' ? 'opaque HTTPS session' : undefined;
  return DOH_PATH.test(path) ? `path ${path.replace(/\?.*$/, '')}` : undefined;
}

/**
 * Encrypted DNS needs evidence of a session that carries DNS, not a name lookup: browsers and operating
 * systems look up resolver names (dns.google, cloudflare-dns.com, Firefox's canary use-application-dns.net)
 * to probe for DoH support, and a network that answers the canary keeps them on its resolvers. Evidence is
 * a DoH request over HTTP, a TLS session whose certificate names a DoH endpoint or that goes to a DoH
 * resolver's address on 443, or any flow to port 853 (DNS over TLS). Resolvers the operator configured (an
 * internal DoT/DoH server) are not evasion. Threat `encrypted_dns` is a known client ID without the policy
 * mark, so the finding keeps its severity; `doh`/`dot` flags say which protocol.
 */
export function encryptedDnsRule(options: DnsBypassOptions = {}): IntelRule {
  const isConfigured = configuredResolverTest(options);
  return {
    definition: D.INTEL_ENCRYPTED_DNS,
    types: ['http', 'ip', 'tls'],
    judge: (intel, observed) => {
      const verdict = encryptedDnsVerdict(intel, observed);
      // The configured resolvers are checked last: most events are no encrypted DNS at all.
      return verdict === undefined || isConfigured(intel.destIp) ? undefined : verdict;
    },
  };
}

/** The encrypted-DNS verdict on an event, before the operator's own resolvers are excepted. */
function encryptedDnsVerdict(intel: EventIntel, observed: ObservedEvent): IntelVerdict | undefined {
  const doh = byCategory(intel, 'doh');
  if (observed.type === 'http') {
    const resolverNames = doh.filter((m) => m.kind === 'domain');
    // Most requests go to no resolver at all: the request itself is read only for those that do.
    if (resolverNames.length === 0) return undefined;
    const evidence = dohHttpEvidence(observed.event as HttpEvent);
    if (evidence === undefined) return undefined;
    const verdict = indicatorVerdict(
      resolverNames,
      'the DNS-over-HTTPS resolver',
      `${evidence}: name lookups over HTTPS bypass the monitored resolvers`,
    );
    return verdict === undefined ? undefined : { ...verdict, extraFlags: ['doh'] };
  }
  if (intel.destPort === DOT_PORT) {
    return {
      key: `${intel.destIp ?? '?'}:${DOT_PORT}`,
      labels: ['dot:resolver', ...uniqueLabels(doh)],
      extraFlags: ['dot'],
      observations: [`port ${DOT_PORT}`],
      reason: 'uses port 853, DNS over TLS: name lookups bypass the monitored resolvers',
    };
  }
  if (observed.type === 'tls' && intel.destPort !== undefined && intel.destPort !== HTTPS_PORT) return undefined;
  // A flow record without a port says nothing about the service; TLS records are HTTPS unless told otherwise.
  if (observed.type === 'ip' && intel.destPort !== HTTPS_PORT) return undefined;
  const verdict = indicatorVerdict(
    observed.type === 'tls' ? doh : doh.filter((m) => m.kind !== 'domain'),
    'the DNS-over-HTTPS resolver',
    'HTTPS to a DoH resolver carries DNS past the monitored resolvers',
  );
  return verdict === undefined ? undefined : { ...verdict, key: `${verdict.key}:${HTTPS_PORT}`, extraFlags: ['doh'] };
}

export interface DnsBypassOptions {
  /** Resolvers the network is configured to use (addresses); DNS to them, and their own upstream queries, are never flagged. */
  configuredResolvers?: readonly string[];
}

/** Whether an address (in any of its spellings) is one of the configured resolvers. */
function configuredResolverTest(options: DnsBypassOptions): (ip: unknown) => boolean {
  const addressOf = (ip: string) => canonicalIp(ip) ?? ip;
  const resolvers = new Set((options.configuredResolvers ?? []).map(addressOf));
  return (ip) => resolvers.size > 0 && typeof ip === 'string' && resolvers.has(addressOf(ip));
}

/**
 * Resolver bypass is a policy detection (threat marked `policy`, severity 2): plain DNS from a workstation
 * to a public resolver escapes logging and filtering, but it is as often a hand-set DNS server as malware.
 * The configured resolvers forwarding to their upstreams (source = a configured resolver) is how DNS works.
 */
export function dnsBypassRule(options: DnsBypassOptions = {}): IntelRule {
  const isConfigured = configuredResolverTest(options);
  return {
    definition: D.INTEL_DNS_BYPASS,
    types: ['ip'],
    judge: (intel: EventIntel, observed: ObservedEvent) => {
      if (intel.destPort !== 53 || intel.destIp === undefined) return undefined;
      if (isConfigured(intel.destIp) || isConfigured((observed.event as IpEvent).srcIP)) return undefined;
      const resolvers = matchesWhere(intel, isResolverAddress);
      const proto = (observed.event as IpEvent).proto;
      const verdict = indicatorVerdict(
        resolvers,
        'the public-resolver',
        `DNS${typeof proto === 'string' && proto.length > 0 ? ` over ${proto.toUpperCase()}` : ''} sent straight to an outside resolver escapes the configured resolvers and their logging`,
      );
      return verdict;
    },
  };
}
