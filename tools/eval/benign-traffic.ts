/** Alerts raised by benign traffic: the rankings queried by a fleet of hosts, and generated normal traffic. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, httpEvents, ipEvents, tlsEvents } from '@vigil/testing';
import { pct, type EvalSection } from './table';

export const benignTraffic: EvalSection = {
  name: 'benign traffic',
  async run(context) {
    const at = (ms: number) => new Date(context.t0 + ms).toISOString();
    const rows: (string | number)[][] = [];
    for (const list of ['tranco10k.txt', 'majestic-top10k.txt', 'cisco-top20k.txt', 'cloudflare-top100k.txt']) {
      const names = readFileSync(path.join(context.dataDir, 'benign', list), 'utf8').trim().split('\n');
      // 200 hosts browsing the list: each name once, a few seconds apart per host.
      const events = names.map((query, i) => ({ ts: at(Math.floor(i / 200) * 3000 + (i % 200)), srcIP: `10.20.0.${(i % 200) + 1}`, query, qtype: 'A' }));
      const { detections, alerts } = context.runEngine('dns', events);
      rows.push([`benign ${list} (${names.length.toLocaleString('en-US')} names, 200 hosts)`, `${alerts} alerts (${pct(alerts, names.length)} of queries)`, [...detections].join(', ') || 'no findings', 'no alerts']);
    }
    const generated: [string, TelemetryType, TelemetryEvent[]][] = [
      ['dns browsing, updates, telemetry', 'dns', benignDnsEvents(30_000, { hosts: 100 })],
      ['ip flows', 'ip', ipEvents(30_000, { hosts: 100 })],
      ['http', 'http', httpEvents(10_000, { hosts: 100 })],
      ['tls', 'tls', tlsEvents(10_000, { hosts: 100 })],
    ];
    for (const [name, type, events] of generated) {
      const { detections, alerts } = context.runEngine(type, events);
      rows.push([`generated normal ${name} (${events.length.toLocaleString('en-US')} events)`, `${alerts} alerts`, [...detections].join(', ') || 'no findings', 'no alerts']);
    }
    return [{
      title: 'Benign traffic through the whole engine',
      columns: ['traffic', 'result', 'findings', 'goal'],
      rows,
      notes: ['The held-out benign slice (tools/dga/dataset.ts) is not in the shipped popularity data, so the Cloudflare list includes names the engine treats as never ranked.'],
    }];
  },
};
