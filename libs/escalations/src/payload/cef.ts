import { isIP } from 'node:net';
import type { Alert, OcsfDetectionFinding } from '@vigil/contracts';
import type { EscalationItem } from './escalation-item';

/**
 * ArcSight Common Event Format (CEF:0) lines for findings and alerts:
 * `CEF:0|Vigil|Vigil|<version>|<event class id>|<name>|<severity>|<key=value extensions>`.
 * Header fields escape `\` and `|`; extension values escape `\` and `=`, and newlines become `\n` / `\r`.
 */
const DEVICE_VENDOR = 'Vigil';
const DEVICE_PRODUCT = 'Vigil';
/** The product version in the CEF header (the Vigil release these field mappings belong to). */
const DEVICE_VERSION = '0.1.0';
/** Vigil severity 1–5 → CEF 0–10 (CEF bands: 0–3 low, 4–6 medium, 7–8 high, 9–10 very high). */
const CEF_SEVERITY: Record<number, number> = { 1: 1, 2: 3, 3: 5, 4: 8, 5: 10 };
const MAX_EXTENSION_VALUE = 4000;

export function escapeCefHeader(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

export function escapeCefExtension(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/=/g, '\\=').replace(/\r\n|\n/g, '\\n').replace(/\r/g, '\\r');
}

type Extensions = [key: string, value: string | number | undefined][];

function cefLine(classId: string, name: string, severity: number, extensions: Extensions): string {
  const header = ['CEF:0', DEVICE_VENDOR, DEVICE_PRODUCT, DEVICE_VERSION, classId, name, String(CEF_SEVERITY[severity] ?? 5)];
  const parts = extensions
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${escapeCefExtension(String(value).slice(0, MAX_EXTENSION_VALUE))}`);
  return `${header.slice(0, 1).concat(header.slice(1).map(escapeCefHeader)).join('|')}|${parts.join(' ')}`;
}

/** A custom string field with its label (`csN` + `csNLabel`); nothing when the value is absent. */
function custom(slot: number, label: string, value: string | undefined): Extensions {
  return value === undefined || value === '' ? [] : [[`cs${slot}Label`, label], [`cs${slot}`, value]];
}

const ip = (value: unknown): string | undefined => (typeof value === 'string' && isIP(value) !== 0 ? value : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const port = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535 ? (value as number) : undefined);
const millis = (seconds: unknown): number | undefined => (typeof seconds === 'number' && Number.isFinite(seconds) ? seconds * 1000 : undefined);

interface Endpoint {
  ip?: string;
  port?: number;
  hostname?: string;
}

export function cefForItem(item: EscalationItem): string {
  return item.source === 'finding' ? cefForFinding(item.body, item) : cefForAlert(item.body.alerts[0], item);
}

function cefForFinding(finding: OcsfDetectionFinding, item: EscalationItem): string {
  const info = finding.finding_info as OcsfDetectionFinding['finding_info'] & {
    types?: string[];
    analytic?: { uid?: string };
    attacks?: { technique?: { uid?: string } }[];
  };
  const device = (finding.device ?? {}) as { ip?: string; hostname?: string; mac?: string };
  const evidence = ((finding.evidences as { query?: { hostname?: string }; dst_endpoint?: Endpoint }[] | undefined) ?? [])[0];
  const techniques = (info.attacks ?? []).map((a) => a.technique?.uid).filter((uid): uid is string => typeof uid === 'string');
  return cefLine(text(info.analytic?.uid) ?? text(info.types?.[0]) ?? 'finding', info.title, item.severity, [
    ['rt', item.time],
    ['start', millis(finding.start_time)],
    ['end', millis(finding.end_time)],
    ['externalId', item.idempotencyKey],
    ['cnt', typeof finding.count === 'number' ? finding.count : undefined],
    ['msg', text(finding.message) ?? text(info.desc)],
    ['cat', text(info.types?.[0])],
    ['src', ip(device.ip)],
    ['shost', text(device.hostname)],
    ['smac', text(device.mac)],
    ['dst', ip(evidence?.dst_endpoint?.ip)],
    ['dpt', port(evidence?.dst_endpoint?.port)],
    ['dhost', text(evidence?.query?.hostname) ?? text(evidence?.dst_endpoint?.hostname)],
    ['act', text(finding.activity_name)],
    ...custom(1, 'workspaceId', item.workspaceId),
    ...custom(2, 'findingUid', info.uid),
    ...custom(3, 'mitreAttack', techniques.join(',')),
  ]);
}

function cefForAlert(alert: Alert, item: EscalationItem): string {
  const event = alert.event as unknown as Record<string, unknown>;
  const threats = item.source === 'alert' ? item.body.threats : {};
  const name = alert.threats.map((id) => threats[id]?.title ?? id).join('; ');
  return cefLine(alert.threats[0] ?? 'alert', name || 'alert', item.severity, [
    ['rt', item.time],
    ['externalId', item.idempotencyKey],
    ['cat', alert.eventType],
    ['src', ip(event.srcIP)],
    ['spt', port(event.srcPort)],
    ['shost', text(event.srcHost)],
    ['smac', text(event.srcMac)],
    ['suser', text(event.srcUser)],
    ['dst', ip(event.destIP)],
    ['dpt', port(event.destPort)],
    ['dhost', text(event.query) ?? text(alert.wisdom?.domain)],
    ['request', text(event.url)],
    ['requestClientApplication', text(event.userAgent)],
    ...custom(1, 'workspaceId', item.workspaceId),
    ...custom(3, 'mitreAttack', alert.mitreAttack.join(',')),
    ...custom(5, 'threats', alert.threats.join(',')),
    ...custom(6, 'flags', (alert.wisdom?.flags ?? []).join(',')),
  ]);
}
