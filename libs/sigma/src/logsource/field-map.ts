import type { TelemetryType } from '@vigil/contracts';
import { getDomain } from 'tldts';
import { internField, type FieldAccessor, type FieldValue } from '../match/field-registry';
import { urlPartsOf } from './url-parts';

interface FieldDef {
  /** Canonical key; accessors with the same key are one field. */
  key: string;
  /** Sigma field names (taxonomies: generic, Zeek, W3C, Sysmon, ECS) and Vigil's own name. */
  names: string[];
  get: FieldAccessor;
}

const prop =
  (name: string): FieldAccessor =>
  (e) =>
    e[name] as FieldValue;
const lowerProp =
  (name: string): FieldAccessor =>
  (e) =>
    typeof e[name] === 'string' ? (e[name] as string).toLowerCase() : (e[name] as FieldValue);

function dnsName(e: Record<string, unknown>): string | undefined {
  return typeof e.query === 'string' ? e.query.toLowerCase().replace(/\.$/, '') : undefined;
}

function registeredDomainOf(host: string | undefined, enrichmentDomain: string | undefined): string | undefined {
  if (enrichmentDomain) return enrichmentDomain;
  return host ? (getDomain(host) ?? undefined) : undefined;
}

const ALLOW = ['allow', 'allowed', 'accept', 'accepted', 'permit', 'pass', 'forward'];
const DENY = ['deny', 'denied', 'block', 'blocked', 'drop', 'dropped', 'reject', 'rejected'];

/** Firewall actions vary by vendor: an allowed or denied flow answers to every common spelling. */
function actionSynonyms(e: Record<string, unknown>): FieldValue {
  if (typeof e.action !== 'string') return undefined;
  const action = e.action.toLowerCase();
  if (ALLOW.includes(action)) return ALLOW;
  if (DENY.includes(action)) return DENY;
  return action;
}

function blocked(e: Record<string, unknown>): FieldValue {
  if (typeof e.action !== 'string') return undefined;
  const action = e.action.toLowerCase();
  return DENY.includes(action) ? 'true' : ALLOW.includes(action) ? 'false' : undefined;
}

/** The reporting host is the client of every event Vigil receives, so it initiated the connection. */
const initiated: FieldAccessor = () => 'true';

const HEADER: FieldDef[] = [
  { key: 'hdr:ts', names: ['ts', '@timestamp', 'timestamp'], get: prop('ts') },
  { key: 'hdr:srcIP', names: ['srcIP', 'src_ip', 'c-ip', 'SourceIp', 'id.orig_h', 'source.ip', 'clientip', 'client_ip'], get: prop('srcIP') },
  { key: 'hdr:srcPort', names: ['srcPort', 'src_port', 'c-port', 'SourcePort', 'id.orig_p', 'source.port'], get: prop('srcPort') },
  { key: 'hdr:srcHost', names: ['srcHost', 'src_host', 'ComputerName', 'Computer', 'SourceHostname', 'host.name'], get: prop('srcHost') },
  { key: 'hdr:srcMac', names: ['srcMac', 'src_mac', 'source.mac', 'mac'], get: prop('srcMac') },
  { key: 'hdr:srcUser', names: ['srcUser', 'src_user', 'User', 'user', 'user.name'], get: prop('srcUser') },
  { key: 'hdr:srcID', names: ['srcID'], get: prop('srcID') },
];

const DEST: FieldDef[] = [
  { key: 'dst:destIP', names: ['destIP', 'dst_ip', 's-ip', 'DestinationIp', 'id.resp_h', 'destination.ip'], get: prop('destIP') },
  { key: 'dst:destPort', names: ['destPort', 'dst_port', 's-port', 'DestinationPort', 'id.resp_p', 'destination.port'], get: prop('destPort') },
];

const BY_TYPE: Record<TelemetryType, FieldDef[]> = {
  dns: [
    { key: 'dns:query', names: ['query', 'QueryName', 'dns.question.name', 'DestinationHostname', 'dns_query'], get: dnsName },
    { key: 'dns:qtype', names: ['qtype', 'record_type', 'qtype_name', 'dns.question.type', 'QueryType'], get: prop('qtype') },
    {
      key: 'dns:registered',
      names: ['parent_domain', 'query_etld_plus_one', 'dns.question.registered_domain'],
      get: (e, x) => registeredDomainOf(dnsName(e), x?.domain),
    },
    { key: 'dns:length', names: ['query_length'], get: (e) => dnsName(e)?.length },
    { key: 'initiated', names: ['Initiated'], get: initiated },
  ],
  ip: [
    ...DEST,
    { key: 'ip:proto', names: ['proto', 'Protocol', 'network.transport', 'transport'], get: lowerProp('proto') },
    { key: 'ip:app', names: ['app', 'network.protocol', 'service'], get: lowerProp('app') },
    { key: 'ip:bytesOut', names: ['bytesOut', 'source.bytes', 'orig_bytes', 'cs-bytes'], get: prop('bytesOut') },
    { key: 'ip:bytesIn', names: ['bytesIn', 'destination.bytes', 'resp_bytes', 'sc-bytes'], get: prop('bytesIn') },
    { key: 'ip:packetsOut', names: ['packetsOut', 'source.packets', 'orig_pkts'], get: prop('packetsOut') },
    { key: 'ip:packetsIn', names: ['packetsIn', 'destination.packets', 'resp_pkts'], get: prop('packetsIn') },
    { key: 'ip:duration', names: ['duration'], get: prop('duration') },
    { key: 'ip:action', names: ['action'], get: actionSynonyms },
    { key: 'ip:blocked', names: ['blocked'], get: blocked },
    { key: 'initiated', names: ['Initiated'], get: initiated },
  ],
  http: [
    { key: 'http:url', names: ['url', 'c-uri', 'cs-uri', 'url.full', 'http.url'], get: prop('url') },
    {
      key: 'http:pathQuery',
      names: ['uri', 'c-uri-query', 'cs-uri-query', 'url.original'],
      get: (e) => {
        const u = urlPartsOf(e);
        return u && (u.query === undefined ? u.path : `${u.path}?${u.query}`);
      },
    },
    { key: 'http:path', names: ['c-uri-stem', 'cs-uri-stem', 'url.path'], get: (e) => urlPartsOf(e)?.path },
    { key: 'http:query', names: ['url.query'], get: (e) => urlPartsOf(e)?.query },
    {
      key: 'http:extension',
      names: ['c-uri-extension', 'url.extension'],
      get: (e) => /\.([^./]+)$/.exec(urlPartsOf(e)?.path ?? '')?.[1],
    },
    { key: 'http:host', names: ['cs-host', 'r-dns', 'host', 'url.domain', 'http.host', 'DestinationHostname'], get: (e) => urlPartsOf(e)?.host },
    {
      key: 'http:registered',
      names: ['registered_domain', 'url.registered_domain'],
      get: (e, x) => registeredDomainOf(urlPartsOf(e)?.host, x?.domain),
    },
    { key: 'http:method', names: ['method', 'cs-method', 'http.method', 'http.request.method'], get: prop('method') },
    { key: 'http:status', names: ['status', 'sc-status', 'status_code', 'http.response.status_code'], get: prop('status') },
    {
      key: 'http:userAgent',
      names: ['userAgent', 'c-useragent', 'cs-user-agent', 'cs(User-Agent)', 'user_agent', 'user_agent.original'],
      get: prop('userAgent'),
    },
    { key: 'http:referrer', names: ['referrer', 'cs-referrer', 'cs-referer', 'cs(Referer)', 'http.request.referrer'], get: prop('referrer') },
    { key: 'http:contentType', names: ['contentType', 'cs-content-type', 'resp_mime_types', 'http.response.mime_type'], get: prop('contentType') },
    { key: 'http:bytesOut', names: ['bytesOut', 'cs-bytes', 'http.request.bytes'], get: prop('bytesOut') },
    { key: 'http:bytesIn', names: ['bytesIn', 'sc-bytes', 'http.response.bytes'], get: prop('bytesIn') },
    { key: 'http:app', names: ['app'], get: lowerProp('app') },
    { key: 'http:action', names: ['action'], get: actionSynonyms },
    { key: 'initiated', names: ['Initiated'], get: initiated },
  ],
  tls: [
    ...DEST,
    { key: 'tls:issuer', names: ['issuer', 'certificate.issuer', 'tls.issuer', 'tls.server.issuer'], get: prop('issuer') },
    { key: 'tls:subject', names: ['subject', 'certificate.subject', 'tls.subject', 'tls.server.subject'], get: prop('subject') },
    { key: 'tls:certHash', names: ['certHash', 'tls.certHash', 'tls.cert_hash'], get: lowerProp('certHash') },
    { key: 'tls:ja3', names: ['ja3', 'tls.ja3', 'tls.client.ja3'], get: lowerProp('ja3') },
    { key: 'tls:ja3s', names: ['ja3s', 'tls.ja3s', 'tls.server.ja3s'], get: lowerProp('ja3s') },
    { key: 'tls:validFrom', names: ['validFrom', 'certificate.not_valid_before', 'tls.server.not_before'], get: prop('validFrom') },
    { key: 'tls:validTo', names: ['validTo', 'certificate.not_valid_after', 'tls.server.not_after'], get: prop('validTo') },
  ],
  lease: [
    { key: 'lease:type', names: ['type', 'lease.type', 'dhcp.type'], get: prop('type') },
    { key: 'lease:termination', names: ['termination', 'lease.termination'], get: prop('termination') },
    { key: 'lease:duration', names: ['duration', 'lease.duration'], get: prop('duration') },
  ],
};

/** Fields that read results of Vigil's built-in analytics from the enrichment passed at match time. */
function enrichmentField(name: string, type: TelemetryType): { key: string; get: FieldAccessor } | undefined {
  if (name === 'wisdom.flags') return { key: 'enr:flags', get: (_e, x) => x?.flags };
  const flag = /^wisdom\.flags\.(.+)$/.exec(name);
  if (flag) return { key: `enr:flag:${flag[1]}`, get: (_e, x) => (x ? (x.flags ?? []).includes(flag[1]) : undefined) };
  if (name === 'wisdom.labels' || name === 'intel.labels') return { key: 'enr:labels', get: (_e, x) => x?.labels };
  const category = /^(?:wisdom|intel)\.labels\.(.+)$/.exec(name);
  if (category) {
    const prefix = `${category[1]}:`;
    return {
      key: `enr:labels:${category[1]}`,
      get: (_e, x) => x?.labels?.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)),
    };
  }
  if (name === 'wisdom.domain' || (name === 'registered_domain' && type !== 'http')) {
    return {
      key: `enr:domain:${type}`,
      get: (e, x) => x?.domain ?? (type === 'dns' ? registeredDomainOf(dnsName(e), undefined) : undefined),
    };
  }
  return undefined;
}

type Table = Map<string, { key: string; get: FieldAccessor }>;
const tables = new Map<TelemetryType, { exact: Table; folded: Table }>();

function tableOf(type: TelemetryType): { exact: Table; folded: Table } {
  let table = tables.get(type);
  if (!table) {
    const exact: Table = new Map();
    const folded: Table = new Map();
    for (const def of [...HEADER, ...BY_TYPE[type]]) {
      for (const name of def.names) {
        exact.set(name, def);
        if (!folded.has(name.toLowerCase())) folded.set(name.toLowerCase(), def);
      }
    }
    tables.set(type, (table = { exact, folded }));
  }
  return table;
}

/** The field id a Sigma field name reads on an event type, or undefined when that event type has no such field. */
export function resolveField(type: TelemetryType, sigmaName: string): number | undefined {
  const table = tableOf(type);
  const def = table.exact.get(sigmaName) ?? table.folded.get(sigmaName.toLowerCase()) ?? enrichmentField(sigmaName, type);
  return def ? internField(def.key, def.get) : undefined;
}

const KEYWORD_FIELDS: Record<TelemetryType, string[]> = {
  dns: ['query'],
  ip: ['srcIP', 'destIP', 'proto', 'app', 'action'],
  http: ['url', 'userAgent', 'referrer', 'method'],
  tls: ['issuer', 'subject', 'certHash', 'ja3', 'ja3s'],
  lease: ['type', 'srcHost', 'srcMac', 'srcIP'],
};

/** Keyword (field-less) search reads these event fields, each on its own (a keyword never spans two fields). */
export function keywordField(type: TelemetryType): number {
  const names = KEYWORD_FIELDS[type];
  return internField(`kw:${type}`, (e) => {
    const out: string[] = [];
    for (const name of names) {
      const v = e[name];
      if (typeof v === 'string' || typeof v === 'number') out.push(String(v));
    }
    return out;
  });
}
