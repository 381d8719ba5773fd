import { sharedDir } from '@vigil/testing';
import { readFileSync } from 'node:fs';
import { DNS_TUNNEL } from '../detections/dns-tunnel/dns-tunnel';
import { OAST_DOMAIN } from '../detections/oast/oast-domain';
import { FLAG_DICTIONARY } from './flags';
import { THREAT_DICTIONARY } from './threats';

const clientsNotes = readFileSync(sharedDir('notes', 'clients.md'), 'utf8');

/** `id` "Title" (4[, policy]) entries of the "Known real threat IDs" paragraph. */
function documentedThreats(): { id: string; title: string; severity?: number; policy: boolean }[] {
  const start = clientsNotes.indexOf('Known real threat IDs');
  const end = clientsNotes.indexOf('Known flag IDs');
  const section = clientsNotes.slice(start, end).replace(/\s+/g, ' ');
  const out: { id: string; title: string; severity?: number; policy: boolean }[] = [];
  for (const m of section.matchAll(/`([a-z0-9_]+)` "([^"]+)"(?: \((\d)(, policy)?\))?/g)) {
    out.push({ id: m[1], title: m[2], severity: m[3] === undefined ? undefined : Number(m[3]), policy: m[4] !== undefined });
  }
  return out;
}

function documentedFlags(): string[] {
  const start = clientsNotes.indexOf('Known flag IDs');
  const section = clientsNotes.slice(start, clientsNotes.indexOf('Labels have the form', start));
  return [...section.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]);
}

describe('threat dictionary', () => {
  const documented = documentedThreats();

  it('parses the documented list (guards the parser)', () => {
    expect(documented.length).toBeGreaterThanOrEqual(21);
  });

  it('holds every documented threat with its title, severity and policy flag', () => {
    for (const threat of documented) {
      const entry = THREAT_DICTIONARY[threat.id];
      expect({ id: threat.id, title: entry?.title }).toEqual({ id: threat.id, title: threat.title });
      if (threat.severity !== undefined) expect({ id: threat.id, severity: entry.severity }).toEqual({ id: threat.id, severity: threat.severity });
      if (threat.policy) expect(entry.policy).toBe(true);
    }
  });

  it('has integer severities 1-5 and non-empty titles everywhere', () => {
    for (const [id, threat] of Object.entries(THREAT_DICTIONARY)) {
      expect(id).toMatch(/^[a-z0-9]+(?:_[a-z0-9]+)*$/);
      expect(Number.isInteger(threat.severity) && threat.severity >= 1 && threat.severity <= 5).toBe(true);
      expect(threat.title.length).toBeGreaterThan(0);
    }
  });

  it('knows the threat and flags of every built-in detection', () => {
    for (const detection of [DNS_TUNNEL, OAST_DOMAIN]) {
      expect(THREAT_DICTIONARY[detection.threat]).toBeDefined();
      for (const flag of detection.flags) expect(FLAG_DICTIONARY[flag]).toBeDefined();
    }
    expect(DNS_TUNNEL.threat).toBe('multiple_long_hostnames');
  });
});

describe('flag dictionary', () => {
  it('holds every documented flag', () => {
    const documented = documentedFlags();
    expect(documented.length).toBeGreaterThanOrEqual(29);
    for (const id of documented) expect({ id, present: FLAG_DICTIONARY[id] !== undefined }).toEqual({ id, present: true });
  });

  it('uses lower_snake ids and the two known flag types', () => {
    for (const [id, flag] of Object.entries(FLAG_DICTIONARY)) {
      expect(id).toMatch(/^[a-z0-9]+(?:_[a-z0-9]+)*$/);
      expect(['category', 'feature']).toContain(flag.type);
      expect(flag.title.length).toBeGreaterThan(0);
    }
  });
});
