import type { TelemetryType } from '@vigil/contracts';
import { getDomain } from 'tldts';
import type { EventView } from '../match/event-view';
import {
  ALWAYS,
  derivedSlot,
  internField,
  lowerCaseList,
  NO_VALUE,
  OWN_VALUE,
  SLICE,
  type FieldAccessor,
  type FieldScreen,
  type FieldValue,
  type ScreenAtom,
  type SliceAccessor,
} from '../match/field-registry';
import { lowerCase } from '../match/lower-case';
import { urlPartsOf, type UrlParts } from './url-parts';

interface FieldDef {
  /** Canonical key; accessors with the same key are one field. */
  key: string;
  /** Sigma field names (taxonomies: generic, Zeek, W3C, Sysmon, ECS) and Vigil's own name. */
  names: string[];
  get: FieldAccessor;
  /** Where the field lies in the URL, when it is a slice of it (lets the pre-filter scan the URL once for all its parts). */
  inUrl?: SliceAccessor;
  /** How the pre-filter screens the field through another field (or decides it outright for a constant). */
  screen?: { via?: FieldDef; translate: FieldScreen['translate'] };
}

/** A slice accessor over the event's URL: `part` returns [start, end), or NO_VALUE / OWN_VALUE. */
function urlSlice(part: (u: UrlParts, out: Int32Array) => number): SliceAccessor {
  return (view, out) => {
    const u = urlPartsOf(view);
    if (u === undefined) return NO_VALUE;
    const found = part(u, out);
    return found === SLICE || found === NO_VALUE ? found : OWN_VALUE;
  };
}

function span(out: Int32Array, start: number, end: number): typeof SLICE {
  out[0] = start;
  out[1] = end;
  return SLICE;
}

/** The path's extension (after its last dot, within its last segment) as a slice of the URL. */
function extensionSlice(u: UrlParts, out: Int32Array): number {
  if (u.pathImplied) return NO_VALUE;
  let k = u.pathEnd - 1;
  while (k >= u.pathStart) {
    const c = u.url.charCodeAt(k);
    if (c === 46 || c === 47) break; // . /
    k--;
  }
  return k >= u.pathStart && k < u.pathEnd - 1 && u.url.charCodeAt(k) === 46 ? span(out, k + 1, u.pathEnd) : NO_VALUE;
}

// Each field reads its event property through its own arrow function (`(e) => e.url`), not a shared
// `(e) => e[name]`: one property-access site per field stays monomorphic, a shared one does not.
function lowered(v: unknown): FieldValue {
  return typeof v === 'string' ? lowerCase(v) : (v as FieldValue);
}

const DNS_NAME_SLOT = derivedSlot();
const normaliseQuery = (e: Record<string, unknown>): string | undefined => {
  if (typeof e.query !== 'string') return undefined;
  const name = lowerCase(e.query);
  return name.endsWith('.') ? name.slice(0, -1) : name;
};

/** The DNS query name, lower-cased without its trailing dot; computed once per event. */
function dnsName(view: EventView): string | undefined {
  return view.derive(DNS_NAME_SLOT, normaliseQuery);
}

function registeredDomainOf(host: string | undefined, enrichmentDomain: string | undefined): string | undefined {
  if (enrichmentDomain) return enrichmentDomain;
  return host ? (getDomain(host) ?? undefined) : undefined;
}

const ALLOW = lowerCaseList(['allow', 'allowed', 'accept', 'accepted', 'permit', 'pass', 'forward']);
const DENY = lowerCaseList(['deny', 'denied', 'block', 'blocked', 'drop', 'dropped', 'reject', 'rejected']);

/** Firewall actions vary by vendor: an allowed or denied flow answers to every common spelling. */
function actionSynonyms(e: Record<string, unknown>): FieldValue {
  if (typeof e.action !== 'string') return undefined;
  const action = lowerCase(e.action);
  if (ALLOW.includes(action)) return ALLOW;
  if (DENY.includes(action)) return DENY;
  return action;
}

function blocked(e: Record<string, unknown>): FieldValue {
  if (typeof e.action !== 'string') return undefined;
  const action = lowerCase(e.action);
  return DENY.includes(action) ? 'true' : ALLOW.includes(action) ? 'false' : undefined;
}

/** The reporting host is the client of every event Vigil receives, so it initiated the connection. */
const initiated: FieldAccessor = () => 'true';

function atomHolds(atom: ScreenAtom, value: string): boolean {
  switch (atom.kind) {
    case 'contains':
      return value.includes(atom.text);
    case 'exact':
      return value === atom.text;
    case 'prefix':
      return value.startsWith(atom.text);
    case 'suffix':
      return value.endsWith(atom.text);
  }
}

const exactly = (words: readonly string[]): ScreenAtom[] => words.map((text) => ({ kind: 'exact', text }));

/** The action as sent (keyword search reads it so; the synonym fields are screened through it). */
const RAW_ACTION: FieldDef = {
  key: 'raw:action',
  names: [],
  get: (e) => (typeof e.action === 'string' || typeof e.action === 'number' ? e.action : undefined),
};

/** A raw action satisfies an atom asked of the synonyms if it is one of the spellings holding it, or (not a known spelling) holds it itself. */
const ACTION_SCREEN: FieldDef['screen'] = {
  via: RAW_ACTION,
  translate: (atom) => [atom, ...(ALLOW.some((w) => atomHolds(atom, w)) ? exactly(ALLOW) : []), ...(DENY.some((w) => atomHolds(atom, w)) ? exactly(DENY) : [])],
};

/** `blocked` is 'true' for a deny spelling, 'false' for an allow one, absent otherwise. */
const BLOCKED_SCREEN: FieldDef['screen'] = {
  via: RAW_ACTION,
  translate: (atom) => [...(atomHolds(atom, 'true') ? exactly(DENY) : []), ...(atomHolds(atom, 'false') ? exactly(ALLOW) : [])],
};

const INITIATED: FieldDef = { key: 'initiated', names: ['Initiated'], get: initiated, screen: { translate: (atom) => (atomHolds(atom, 'true') ? ALWAYS : []) } };

const HEADER: FieldDef[] = [
  { key: 'hdr:ts', names: ['ts', '@timestamp', 'timestamp'], get: (e) => e.ts as FieldValue },
  { key: 'hdr:srcIP', names: ['srcIP', 'src_ip', 'c-ip', 'SourceIp', 'id.orig_h', 'source.ip', 'clientip', 'client_ip'], get: (e) => e.srcIP as FieldValue },
  { key: 'hdr:srcPort', names: ['srcPort', 'src_port', 'c-port', 'SourcePort', 'id.orig_p', 'source.port'], get: (e) => e.srcPort as FieldValue },
  { key: 'hdr:srcHost', names: ['srcHost', 'src_host', 'ComputerName', 'Computer', 'SourceHostname', 'host.name'], get: (e) => e.srcHost as FieldValue },
  { key: 'hdr:srcMac', names: ['srcMac', 'src_mac', 'source.mac', 'mac'], get: (e) => e.srcMac as FieldValue },
  { key: 'hdr:srcUser', names: ['srcUser', 'src_user', 'User', 'user', 'user.name'], get: (e) => e.srcUser as FieldValue },
  { key: 'hdr:srcID', names: ['srcID'], get: (e) => e.srcID as FieldValue },
];

const DEST: FieldDef[] = [
  { key: 'dst:destIP', names: ['destIP', 'dst_ip', 's-ip', 'DestinationIp', 'id.resp_h', 'destination.ip'], get: (e) => e.destIP as FieldValue },
  { key: 'dst:destPort', names: ['destPort', 'dst_port', 's-port', 'DestinationPort', 'id.resp_p', 'destination.port'], get: (e) => e.destPort as FieldValue },
];

const URL_FIELD: FieldDef = { key: 'http:url', names: ['url', 'c-uri', 'cs-uri', 'url.full', 'http.url'], get: (e) => e.url as FieldValue };

const BY_TYPE: Record<TelemetryType, FieldDef[]> = {
  dns: [
    { key: 'dns:query', names: ['query', 'QueryName', 'dns.question.name', 'DestinationHostname', 'dns_query'], get: (_e, _x, v) => dnsName(v) },
    { key: 'dns:qtype', names: ['qtype', 'record_type', 'qtype_name', 'dns.question.type', 'QueryType'], get: (e) => e.qtype as FieldValue },
    {
      key: 'dns:registered',
      names: ['parent_domain', 'query_etld_plus_one', 'dns.question.registered_domain'],
      get: (_e, x, v) => registeredDomainOf(dnsName(v), x?.domain),
    },
    { key: 'dns:length', names: ['query_length'], get: (_e, _x, v) => dnsName(v)?.length },
    INITIATED,
  ],
  ip: [
    ...DEST,
    { key: 'ip:proto', names: ['proto', 'Protocol', 'network.transport', 'transport'], get: (e) => lowered(e.proto) },
    { key: 'ip:app', names: ['app', 'network.protocol', 'service'], get: (e) => lowered(e.app) },
    { key: 'ip:bytesOut', names: ['bytesOut', 'source.bytes', 'orig_bytes', 'cs-bytes'], get: (e) => e.bytesOut as FieldValue },
    { key: 'ip:bytesIn', names: ['bytesIn', 'destination.bytes', 'resp_bytes', 'sc-bytes'], get: (e) => e.bytesIn as FieldValue },
    { key: 'ip:packetsOut', names: ['packetsOut', 'source.packets', 'orig_pkts'], get: (e) => e.packetsOut as FieldValue },
    { key: 'ip:packetsIn', names: ['packetsIn', 'destination.packets', 'resp_pkts'], get: (e) => e.packetsIn as FieldValue },
    { key: 'ip:duration', names: ['duration'], get: (e) => e.duration as FieldValue },
    { key: 'ip:action', names: ['action'], get: actionSynonyms, screen: ACTION_SCREEN },
    { key: 'ip:blocked', names: ['blocked'], get: blocked, screen: BLOCKED_SCREEN },
    INITIATED,
  ],
  http: [
    URL_FIELD,
    {
      key: 'http:pathQuery',
      names: ['uri', 'c-uri-query', 'cs-uri-query', 'url.original'],
      get: (_e, _x, v) => {
        const u = urlPartsOf(v);
        return u && (u.query === undefined ? u.path : `${u.path}?${u.query}`);
      },
      inUrl: urlSlice((u, out) => (u.pathImplied ? OWN_VALUE : span(out, u.pathStart, u.queryStart === -1 ? u.pathEnd : u.queryEnd))),
    },
    { key: 'http:path', names: ['c-uri-stem', 'cs-uri-stem', 'url.path'], get: (_e, _x, v) => urlPartsOf(v)?.path, inUrl: urlSlice((u, out) => (u.pathImplied ? OWN_VALUE : span(out, u.pathStart, u.pathEnd))) },
    { key: 'http:query', names: ['url.query'], get: (_e, _x, v) => urlPartsOf(v)?.query, inUrl: urlSlice((u, out) => (u.queryStart === -1 ? NO_VALUE : span(out, u.queryStart, u.queryEnd))) },
    {
      key: 'http:extension',
      names: ['c-uri-extension', 'url.extension'],
      get: (_e, _x, v) => /\.([^./]+)$/.exec(urlPartsOf(v)?.path ?? '')?.[1],
      inUrl: urlSlice(extensionSlice),
    },
    { key: 'http:host', names: ['cs-host', 'r-dns', 'host', 'url.domain', 'http.host', 'DestinationHostname'], get: (_e, _x, v) => urlPartsOf(v)?.host, inUrl: urlSlice((u, out) => (u.hostStart === -1 ? NO_VALUE : span(out, u.hostStart, u.hostEnd))) },
    {
      key: 'http:registered',
      names: ['registered_domain', 'url.registered_domain'],
      get: (_e, x, v) => registeredDomainOf(urlPartsOf(v)?.host, x?.domain),
    },
    { key: 'http:method', names: ['method', 'cs-method', 'http.method', 'http.request.method'], get: (e) => e.method as FieldValue },
    { key: 'http:status', names: ['status', 'sc-status', 'status_code', 'http.response.status_code'], get: (e) => e.status as FieldValue },
    {
      key: 'http:userAgent',
      names: ['userAgent', 'c-useragent', 'cs-user-agent', 'cs(User-Agent)', 'user_agent', 'user_agent.original'],
      get: (e) => e.userAgent as FieldValue,
    },
    { key: 'http:referrer', names: ['referrer', 'cs-referrer', 'cs-referer', 'cs(Referer)', 'http.request.referrer'], get: (e) => e.referrer as FieldValue },
    { key: 'http:contentType', names: ['contentType', 'cs-content-type', 'resp_mime_types', 'http.response.mime_type'], get: (e) => e.contentType as FieldValue },
    { key: 'http:bytesOut', names: ['bytesOut', 'cs-bytes', 'http.request.bytes'], get: (e) => e.bytesOut as FieldValue },
    { key: 'http:bytesIn', names: ['bytesIn', 'sc-bytes', 'http.response.bytes'], get: (e) => e.bytesIn as FieldValue },
    { key: 'http:app', names: ['app'], get: (e) => lowered(e.app) },
    { key: 'http:action', names: ['action'], get: actionSynonyms, screen: ACTION_SCREEN },
    INITIATED,
  ],
  tls: [
    ...DEST,
    { key: 'tls:issuer', names: ['issuer', 'certificate.issuer', 'tls.issuer', 'tls.server.issuer'], get: (e) => e.issuer as FieldValue },
    { key: 'tls:subject', names: ['subject', 'certificate.subject', 'tls.subject', 'tls.server.subject'], get: (e) => e.subject as FieldValue },
    { key: 'tls:certHash', names: ['certHash', 'tls.certHash', 'tls.cert_hash'], get: (e) => lowered(e.certHash) },
    { key: 'tls:ja3', names: ['ja3', 'tls.ja3', 'tls.client.ja3'], get: (e) => lowered(e.ja3) },
    { key: 'tls:ja3s', names: ['ja3s', 'tls.ja3s', 'tls.server.ja3s'], get: (e) => lowered(e.ja3s) },
    { key: 'tls:validFrom', names: ['validFrom', 'certificate.not_valid_before', 'tls.server.not_before'], get: (e) => e.validFrom as FieldValue },
    { key: 'tls:validTo', names: ['validTo', 'certificate.not_valid_after', 'tls.server.not_after'], get: (e) => e.validTo as FieldValue },
  ],
  lease: [
    { key: 'lease:type', names: ['type', 'lease.type', 'dhcp.type'], get: (e) => e.type as FieldValue },
    { key: 'lease:termination', names: ['termination', 'lease.termination'], get: (e) => e.termination as FieldValue },
    { key: 'lease:duration', names: ['duration', 'lease.duration'], get: (e) => e.duration as FieldValue },
  ],
};

/** Fields that read results of Vigil's built-in analytics from the enrichment passed at match time. */
function enrichmentField(name: string, type: TelemetryType): { key: string; get: FieldAccessor; inUrl?: undefined; screen?: undefined } | undefined {
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
      get: (_e, x, v) => x?.domain ?? (type === 'dns' ? registeredDomainOf(dnsName(v), undefined) : undefined),
    };
  }
  return undefined;
}

type Table = Map<string, { key: string; get: FieldAccessor; inUrl?: SliceAccessor; screen?: FieldDef['screen'] }>;
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
  if (!def) return undefined;
  const screen = def.screen && { source: def.screen.via && internField(def.screen.via.key, def.screen.via.get), translate: def.screen.translate };
  return internField(def.key, def.get, def.inUrl && { parent: internField(URL_FIELD.key, URL_FIELD.get), slice: def.inUrl }, undefined, screen);
}

/** The DNS query as sent (keyword search reads it so: a keyword may hold the trailing dot or upper case). */
const RAW_QUERY: FieldDef = { key: 'raw:query', names: [], get: (e) => (typeof e.query === 'string' || typeof e.query === 'number' ? e.query : undefined) };

/**
 * Keyword (field-less) search reads these event fields, each on its own (a keyword never spans two
 * fields). `parts`: fields (Sigma names, or fields of their own) whose values are each property as
 * sent or lower-cased (never fewer strings), which the pre-filter reads instead of building the list.
 */
const KEYWORD_FIELDS: Record<TelemetryType, { read: (e: Record<string, unknown>) => unknown[]; parts: Array<string | FieldDef> }> = {
  dns: { read: (e) => [e.query], parts: [RAW_QUERY] },
  ip: { read: (e) => [e.srcIP, e.destIP, e.proto, e.app, e.action], parts: ['srcIP', 'destIP', 'proto', 'app', RAW_ACTION] },
  http: { read: (e) => [e.url, e.userAgent, e.referrer, e.method], parts: ['url', 'userAgent', 'referrer', 'method'] },
  tls: { read: (e) => [e.issuer, e.subject, e.certHash, e.ja3, e.ja3s], parts: ['issuer', 'subject', 'certHash', 'ja3', 'ja3s'] },
  lease: { read: (e) => [e.type, e.srcHost, e.srcMac, e.srcIP], parts: ['type', 'srcHost', 'srcMac', 'srcIP'] },
};

export function keywordField(type: TelemetryType): number {
  const { read, parts } = KEYWORD_FIELDS[type];
  const partIds = parts.map((part) => (typeof part === 'string' ? (resolveField(type, part) as number) : internField(part.key, part.get)));
  return internField(
    `kw:${type}`,
    (e) => {
      const out: string[] = [];
      for (const v of read(e)) if (typeof v === 'string' || typeof v === 'number') out.push(String(v));
      return out;
    },
    undefined,
    partIds,
  );
}
