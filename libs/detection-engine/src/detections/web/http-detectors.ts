import type { Wisdom } from '@vigil/contracts';
import { matchZone, zoneSet, type ZoneSet } from '../../domain';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { isPublicAddress } from '../network/ip-ranges';
import type { PopularitySet } from '../../popularity';
import { describeDestination, type HttpRequest, isUnpopularDestination, readHttpRequest } from './http-request';
import { CONTENT_INFRASTRUCTURE_ZONES } from './infrastructure';
import { PASTE_SERVICES, type PasteService } from './paste-services';
import { classifyUserAgent, obsoletePlatform, type UserAgentKind } from './user-agents';

const RULE = { id: 1, name: 'Rule' } as const;

export const HTTP_EXECUTABLE_DOWNLOAD: DetectionDefinition = {
  id: 'http_executable_download',
  threat: 'executable_download',
  title: 'Executable download from an unpopular destination',
  severity: 3,
  flags: ['executable'],
  mitreAttack: ['TA0011:T1105', 'TA0002:T1204'],
  analytic: RULE,
  findingType: 'Ingress Tool Transfer',
  keyDescription: 'destination registered domain or IP address',
};

export const HTTP_ATTACK_TOOL_UA: DetectionDefinition = {
  id: 'http_attack_tool_user_agent',
  threat: 'attack_tool_user_agent',
  title: 'Attack tool or exploit payload in the HTTP User-Agent',
  severity: 4,
  flags: ['bad_ua'],
  mitreAttack: ['TA0043:T1595.002', 'TA0001:T1190'],
  analytic: RULE,
  findingType: 'Suspicious User Agent',
  keyDescription: 'tool or exploit name',
};

export const HTTP_OBSOLETE_UA: DetectionDefinition = {
  id: 'http_obsolete_user_agent',
  threat: 'obsolete_user_agent',
  title: 'Obsolete browser User-Agent',
  severity: 3,
  flags: ['bad_ua'],
  mitreAttack: ['TA0011:T1071.001'],
  analytic: RULE,
  findingType: 'Suspicious User Agent',
  keyDescription: 'claimed obsolete platform',
};

export const HTTP_LOLBIN_DOWNLOAD: DetectionDefinition = {
  id: 'http_lolbin_download',
  threat: 'lolbin_download',
  title: 'Built-in Windows downloader contacting an unpopular destination',
  severity: 3,
  flags: ['bad_ua', 'lolbin'],
  mitreAttack: ['TA0011:T1105', 'TA0002:T1059.001', 'TA0005:T1197'],
  analytic: RULE,
  findingType: 'Ingress Tool Transfer',
  keyDescription: 'tool name and destination',
};

export const HTTP_SCRIPTING_CLIENT: DetectionDefinition = {
  id: 'http_scripting_client',
  threat: 'scripting_client',
  title: 'Scripting HTTP client contacting an unpopular destination',
  severity: 1,
  flags: ['scripting_client'],
  mitreAttack: ['TA0011:T1071.001'],
  analytic: RULE,
  findingType: 'Policy Violation',
  keyDescription: 'client name and destination',
};

export const HTTP_RAW_IP_URL: DetectionDefinition = {
  id: 'http_raw_ip_url',
  threat: 'raw_ip_url',
  title: 'HTTP request to a raw Internet IP address',
  severity: 2,
  flags: ['raw_ip'],
  mitreAttack: ['TA0011:T1071.001'],
  analytic: RULE,
  findingType: 'Suspicious Destination',
  keyDescription: 'IP address',
};

export const HTTP_PASTE_SERVICE: DetectionDefinition = {
  id: 'http_paste_service',
  threat: 'paste_service_download',
  title: 'Raw content fetched from a paste or file-drop service',
  severity: 3,
  flags: ['paste_site'],
  mitreAttack: ['TA0011:T1102', 'TA0011:T1105'],
  analytic: RULE,
  findingType: 'Web Service',
  keyDescription: 'paste service registered domain',
};

function singleHit(definition: DetectionDefinition, observed: ObservedEvent, key: string, wisdom: Wisdom, observations: string[], desc: string): DetectionHit {
  return { detection: definition, key, weight: 1, evidence: [{ event: observed, wisdom }], wisdom, observations, desc };
}

function destinationWisdom(definition: DetectionDefinition, request: HttpRequest, labels?: string[]): Wisdom {
  return {
    flags: [...definition.flags],
    ...(labels !== undefined ? { labels } : {}),
    ...(request.domain !== undefined ? { domain: request.domain } : {}),
  };
}

/** File extensions of programs and scripts Windows (and Java) runs, or disk images that carry them. */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe', 'dll', 'scr', 'pif', 'cpl', 'msi', 'msp', 'msix', 'appx', 'hta', 'ps1', 'psm1', 'bat', 'cmd',
  'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'lnk', 'jar', 'iso', 'img', 'vhd', 'elf',
]);

/** Response content types of executables. `application/octet-stream` says nothing and is not listed. */
export const EXECUTABLE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/x-msdownload', 'application/x-msdos-program', 'application/x-dosexec', 'application/x-executable',
  'application/vnd.microsoft.portable-executable', 'application/x-ms-installer', 'application/x-msi',
  'application/x-ms-shortcut', 'application/hta', 'application/x-elf', 'application/java-archive', 'application/x-java-archive',
]);

/** The lengths of the extensions above, so that most paths are ruled out without cutting their extension out. */
const EXTENSION_LENGTHS: ReadonlySet<number> = new Set([...EXECUTABLE_EXTENSIONS].map((extension) => extension.length));

/** The first letters of the content types above (all `application/`): other types are ruled out by theirs. */
const CONTENT_TYPE_FIRST_LETTERS: ReadonlySet<number> = new Set([...EXECUTABLE_CONTENT_TYPES].map((type) => type.charCodeAt(0)));

function executableEvidence(request: HttpRequest): string | undefined {
  const path = request.path;
  const fileStart = path.lastIndexOf('/') + 1;
  const dot = path.lastIndexOf('.');
  if (dot > fileStart && EXTENSION_LENGTHS.has(path.length - dot - 1) && EXECUTABLE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase())) {
    return `file ${path.slice(fileStart)}`;
  }
  const contentType = request.event.contentType;
  if (typeof contentType !== 'string') return undefined;
  const lead = contentType.trimStart();
  if (!CONTENT_TYPE_FIRST_LETTERS.has(lead.charCodeAt(0) | 0x20)) return undefined;
  const semicolon = lead.indexOf(';');
  const type = (semicolon < 0 ? lead : lead.slice(0, semicolon)).trimEnd().toLowerCase();
  if (EXECUTABLE_CONTENT_TYPES.has(type)) return `content type ${type}`;
  return undefined;
}

/**
 * A program or script (by URL extension or response content type) fetched from an Internet address or a
 * registered domain outside the popularity rankings; software vendors and update services are popular.
 * Redirects and errors (nothing delivered) are ignored. Stateless.
 */
export class ExecutableDownloadDetector implements Detector {
  readonly definition = HTTP_EXECUTABLE_DOWNLOAD;
  readonly types = ['http'] as const;

  constructor(private readonly popularity: PopularitySet) {}

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request === undefined || !request.delivered) return undefined;
    const what = executableEvidence(request);
    if (what === undefined || !isUnpopularDestination(request, this.popularity)) return undefined;
    const client = request.userAgent === undefined ? undefined : classifyUserAgent(request.userAgent);
    const by = client !== undefined && client.kind !== 'attack-tool' && client.kind !== 'exploit' ? ` by ${client.name}` : '';
    return singleHit(
      HTTP_EXECUTABLE_DOWNLOAD,
      observed,
      request.domain ?? request.host,
      destinationWisdom(HTTP_EXECUTABLE_DOWNLOAD, request),
      [what, `from ${request.host}`, ...(by !== '' ? [`client ${client!.name}`] : [])],
      `Executable download (${what})${by} from ${describeDestination(request)}: ` +
        'software normally comes from popular vendor and update sites, so this may be malware being delivered',
    );
  }
}

/** Known attack tools and exploit payloads in the User-Agent, whatever the destination. Stateless. */
export class AttackToolUserAgentDetector implements Detector {
  readonly definition = HTTP_ATTACK_TOOL_UA;
  readonly types = ['http'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request?.userAgent === undefined) return undefined;
    const match = classifyUserAgent(request.userAgent);
    if (match === undefined || (match.kind !== 'attack-tool' && match.kind !== 'exploit')) return undefined;
    const why =
      match.kind === 'exploit'
        ? `the User-Agent carries a ${match.name} payload: the host is attacking ${request.host} (or is compromised and scanning)`
        : `the default User-Agent of ${match.name}: an attack or scanning tool runs on the host`;
    return singleHit(
      HTTP_ATTACK_TOOL_UA,
      observed,
      match.name,
      destinationWisdom(HTTP_ATTACK_TOOL_UA, request, [`tool:${match.name}`]),
      [`user agent ${request.userAgent.slice(0, 200)}`, `to ${request.host}`],
      `HTTP request to ${request.host} with ${why}`,
    );
  }
}

/** A User-Agent claiming Internet Explorer 6 or older, or Windows 95/98/ME/NT 4.0/2000. Stateless. */
export class ObsoleteUserAgentDetector implements Detector {
  readonly definition = HTTP_OBSOLETE_UA;
  readonly types = ['http'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request?.userAgent === undefined) return undefined;
    const platform = obsoletePlatform(request.userAgent);
    if (platform === undefined) return undefined;
    return singleHit(
      HTTP_OBSOLETE_UA,
      observed,
      platform,
      destinationWisdom(HTTP_OBSOLETE_UA, request),
      [`user agent ${request.userAgent.slice(0, 200)}`, `claims ${platform}`],
      `HTTP request to ${request.host} claims to come from ${platform}, which no supported system runs: ` +
        'malware and old bots hard-code such User-Agents',
    );
  }
}

/**
 * A client of the given kind (built-in Windows downloaders, or scripting clients as policy) talking to an
 * Internet address or an unpopular registered domain; for scripting clients, CDN and cloud zones count as
 * known (see CONTENT_INFRASTRUCTURE_ZONES). Stateless.
 */
export class ClientToUnpopularDetector implements Detector {
  readonly types = ['http'] as const;
  private readonly infrastructure = zoneSet(CONTENT_INFRASTRUCTURE_ZONES);

  constructor(
    readonly definition: DetectionDefinition,
    private readonly kind: Extract<UserAgentKind, 'lolbin' | 'scripting'>,
    private readonly popularity: PopularitySet,
  ) {}

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request?.userAgent === undefined) return undefined;
    const match = classifyUserAgent(request.userAgent);
    if (match?.kind !== this.kind || !isUnpopularDestination(request, this.popularity)) return undefined;
    if (this.kind === 'scripting' && matchZone(request.host, this.infrastructure) !== undefined) return undefined;
    const destination = request.domain ?? request.host;
    const why =
      this.kind === 'lolbin'
        ? `${match.name} is built into Windows and is how malware and attackers fetch their next stage without a tool of their own`
        : `scripting clients are routine for administrators and developers, but unusual on a workstation talking to an unknown site`;
    return singleHit(
      this.definition,
      observed,
      `${match.name}|${destination}`,
      destinationWisdom(this.definition, request, [`client:${match.name}`]),
      [`client ${match.name}`, `user agent ${request.userAgent.slice(0, 200)}`, `to ${request.host}`],
      `HTTP request by ${match.name} to ${describeDestination(request)}: ${why}`,
    );
  }
}

/** URLs that name a public IP address instead of a host name. Stateless. */
export class RawIpUrlDetector implements Detector {
  readonly definition = HTTP_RAW_IP_URL;
  readonly types = ['http'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request === undefined || !request.ipLiteral || !isPublicAddress(request.host)) return undefined;
    return singleHit(
      HTTP_RAW_IP_URL,
      observed,
      request.host,
      { flags: [...HTTP_RAW_IP_URL.flags] },
      [`url ${String(request.event.url).slice(0, 200)}`],
      `HTTP request to the raw Internet address ${request.host} (no host name): ordinary sites are reached by name, ` +
        'while malware often calls hard-coded addresses to avoid DNS-based blocking',
    );
  }
}

/** Raw content fetched from a paste or file-drop service (see PASTE_SERVICES). Stateless. */
export class PasteServiceDetector implements Detector {
  readonly definition = HTTP_PASTE_SERVICE;
  readonly types = ['http'] as const;
  private readonly zones: ZoneSet;

  constructor(private readonly services: Readonly<Record<string, PasteService>> = PASTE_SERVICES) {
    this.zones = zoneSet(Object.keys(services));
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const request = readHttpRequest(observed);
    if (request === undefined || request.ipLiteral) return undefined;
    const zone = matchZone(request.host, this.zones);
    if (zone === undefined) return undefined;
    const service = this.services[zone];
    if (service.raw !== 'always' && !service.raw.test(request.path)) return undefined;
    return singleHit(
      HTTP_PASTE_SERVICE,
      observed,
      zone,
      { flags: [...HTTP_PASTE_SERVICE.flags], labels: [`paste:${service.name}`], domain: zone },
      [`service ${service.name}`, `path ${request.path.slice(0, 200)}`],
      `HTTP request for raw content ${request.path.slice(0, 120)} from ${service.name} (${request.host}): ` +
        'malware stages payloads and configuration on paste and file-drop services',
    );
  }
}
