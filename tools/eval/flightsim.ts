/** One flightsim-shaped run per module shape, each through a fresh engine: detected or not. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { createRng } from '@vigil/testing';
import type { EvalSection } from './table';

export const flightsimRuns: EvalSection = {
  name: 'flightsim-shaped runs',
  async run(context) {
    const rng = createRng('eval-flightsim');
    const letters = (n: number) => rng.string('abcdefghijklmnopqrstuvwxyz', n);
    const at = (ms: number) => new Date(context.t0 + ms).toISOString();
    const c2 = readFileSync(path.join(context.dataDir, 'intel', 'malware.tsv'), 'utf8').split('\n').find((l) => /\tdomain\t/.test(l) && !/sinkhole/.test(l))!.split('\t')[0];
    const shapes: [string, string, TelemetryType, TelemetryEvent[]][] = [
      ['dga: 15 random 7-10 letter names in 15 s', 'dga_volume', 'dns', Array.from({ length: 15 }, (_, i) => ({ ts: at(i * 1000), srcIP: '10.0.1.1', query: `${letters(7 + (i % 4))}.${['com', 'net', 'biz', 'info', 'org'][i % 5]}`, qtype: 'A' }))],
      ['tunnel: 50 TXT queries of 30 random letters in 10 s', 'dns_tunnel', 'dns', Array.from({ length: 50 }, (_, i) => ({ ts: at(i * 200), srcIP: '10.0.1.2', query: `${letters(30)}.sim-tunnel.net`, qtype: 'TXT' }))],
      ['scan: 10 hosts x 21 ports in 30 s', 'port_scan_horizontal|port_scan_vertical', 'ip', Array.from({ length: 210 }, (_, i) => ({ ts: at(Math.floor(i * 140)), srcIP: '10.0.1.3', destIP: `185.199.108.${1 + Math.floor(i / 21)}`, destPort: [21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 443, 445, 993, 995, 1723, 3306, 3389, 5900, 8080, 8443][i % 21], proto: 'tcp', bytesOut: 60, packetsOut: 1, bytesIn: 0, packetsIn: 0 }))],
      ['icmp tunnel: 80 echoes of 1,400 bytes', 'icmp_tunnel', 'ip', Array.from({ length: 80 }, (_, i) => ({ ts: at(i * 500), srcIP: '10.0.1.4', destIP: '185.220.70.7', proto: 'icmp', bytesOut: 1400, packetsOut: 1, bytesIn: 1400, packetsIn: 1 }))],
      ['ssh exfiltration: 200 MB over SSH to port 443', 'large_ssh_transfer', 'ip', [{ ts: at(0), srcIP: '10.0.1.5', destIP: '185.220.70.8', destPort: 443, proto: 'tcp', app: 'ssh', bytesOut: 200 * 1024 * 1024, packetsOut: 150_000, bytesIn: 2_000_000, packetsIn: 60_000, duration: 600 }]],
      ['c2: lookup of a known C2 domain', 'intel_c2', 'dns', [{ ts: at(0), srcIP: '10.0.1.6', query: c2, qtype: 'A' }]],
      ['oast: interactsh callback lookup', 'oast_domain', 'dns', [{ ts: at(0), srcIP: '10.0.1.7', query: 'c5k3q2vu7cq0000abcdgyyyyyyyyyyyy.oast.fun', qtype: 'A' }]],
      ['imposter: look-alike of a popular brand', 'imposter_domain', 'dns', [{ ts: at(0), srcIP: '10.0.1.8', query: 'www.paypa1-login.com', qtype: 'A' }, { ts: at(1000), srcIP: '10.0.1.8', query: 'www.rnicrosoft.com', qtype: 'A' }]],
      ['tor: .onion lookup', 'intel_tor_dns', 'dns', [{ ts: at(0), srcIP: '10.0.1.9', query: 'duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion', qtype: 'A' }]],
      ['telegram bot API', 'intel_telegram_bot_api', 'dns', [{ ts: at(0), srcIP: '10.0.1.10', query: 'api.telegram.org', qtype: 'A' }]],
      ['miner: Stratum connections to a mining pool port', 'intel_crypto_mining', 'ip', Array.from({ length: 5 }, (_, i) => ({ ts: at(i * 2000), srcIP: '10.0.1.11', destIP: '51.15.65.182', destPort: 3333, proto: 'tcp', bytesOut: 900, packetsOut: 8, bytesIn: 1200, packetsIn: 8 }))],
      ['miner: lookup of a mining pool', 'intel_crypto_mining', 'dns', [{ ts: at(0), srcIP: '10.0.1.12', query: 'bcn.pool.minergate.com', qtype: 'A' }]],
      ['sink: connection into a sinkhole network', 'intel_sinkhole', 'ip', [{ ts: at(0), srcIP: '10.0.1.13', destIP: '143.215.130.33', destPort: 80, proto: 'tcp', bytesOut: 400, packetsOut: 4, bytesIn: 300, packetsIn: 3 }]],
      ['irc: IRC connection to an Internet server', 'intel_irc', 'ip', [{ ts: at(0), srcIP: '10.0.1.14', destIP: '185.220.70.9', destPort: 6667, proto: 'tcp', bytesOut: 2000, packetsOut: 20, bytesIn: 5000, packetsIn: 25 }]],
      ['spambot: SMTP to 40 mail servers in 60 s', 'spambot_smtp', 'ip', Array.from({ length: 40 }, (_, i) => ({ ts: at(i * 1500), srcIP: '10.0.1.15', destIP: `198.51.${100 + (i % 4)}.${10 + i}`, destPort: 25, proto: 'tcp', bytesOut: 4000, packetsOut: 12, bytesIn: 900, packetsIn: 10 }))],
      ['cleartext: Telnet and FTP to the Internet', 'cleartext_protocol', 'ip', [{ ts: at(0), srcIP: '10.0.1.16', destIP: '185.220.70.10', destPort: 23, proto: 'tcp', bytesOut: 800, packetsOut: 10, bytesIn: 900, packetsIn: 10 }, { ts: at(5000), srcIP: '10.0.1.16', destIP: '185.220.70.11', destPort: 21, proto: 'tcp', bytesOut: 800, packetsOut: 10, bytesIn: 900, packetsIn: 10 }]],
      ['encrypted dns: DNS over TLS to a public resolver', 'intel_encrypted_dns', 'ip', [{ ts: at(0), srcIP: '10.0.1.17', destIP: '1.1.1.1', destPort: 853, proto: 'tcp', bytesOut: 3000, packetsOut: 20, bytesIn: 6000, packetsIn: 20 }]],
      ['ssh transfer: 200 MB over SSH to port 22', 'large_ssh_transfer', 'ip', [{ ts: at(0), srcIP: '10.0.1.18', destIP: '185.220.70.12', destPort: 22, proto: 'tcp', app: 'ssh', bytesOut: 200 * 1024 * 1024, packetsOut: 150_000, bytesIn: 2_000_000, packetsIn: 60_000, duration: 600 }]],
      ['http: executable download from an unpopular host', 'http_executable_download', 'http', [{ ts: at(0), srcIP: '10.0.1.19', url: 'http://cdn-update-check.xyz/files/setup.exe', method: 'GET', status: 200, contentType: 'application/x-msdownload', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' }]],
      // flightsim has no TLS module (its c2 module makes plain TCP connections); this is the shape of a C2 implant's
      // check-ins to a self-signed server, judged per host and destination: one such session is not an alert.
      ['tls: C2-style check-ins to a self-signed server on the Internet (5 sessions, 1 min apart)', 'tls_suspicious_server', 'tls', Array.from({ length: 5 }, (_, i) => ({ ts: at(i * 60_000), srcIP: '10.0.1.20', destIP: '185.220.70.13', destPort: 443, issuer: 'CN=portal-login.xyz', subject: 'CN=portal-login.xyz' }))],
    ];
    const rows = shapes.map(([name, expected, type, events]) => {
      const { detections } = context.runEngine(type, events);
      const hit = expected.split('|').some((id) => detections.has(id));
      return [name, hit ? 'detected' : 'MISSED', [...detections].join(', ') || 'nothing', 'every run detected'];
    });
    return [{ title: 'Flightsim-shaped runs (one fresh engine each)', columns: ['shape', 'result', 'detections', 'goal'], rows }];
  },
};
