import { splitJsonObjects } from './libs/ingest/src/split';
import { createEventNormalizer } from './libs/ingest/src/validate';
const lines: string[] = [];
for (let i = 0; i < 66000; i++) lines.push(JSON.stringify({ ts: new Date(Date.UTC(2024, 4, 1, 12, 0, Math.floor(i / 50))).toISOString().replace('.000Z', '.123456789+00:00'), srcIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, srcPort: 1024 + (i % 60000), srcHost: `workstation-${i % 500}`, query: `${i.toString(36)}.cdn${i % 97}.example.com`, qtype: 'A' }));
const text = lines.join('\n');
function time(name: string, f: () => number) { let best = Infinity; for (let r = 0; r < 15; r++) { const t = process.hrtime.bigint(); f(); best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6); } console.log(name.padEnd(30), best.toFixed(1), 'ms', (best / lines.length * 1e6).toFixed(0), 'ns/event'); }
time('baseline kept', () => { const v: unknown[] = []; let pos = 0; while (pos < text.length) { let e = text.indexOf('\n', pos); if (e === -1) e = text.length; v.push(JSON.parse(text.slice(pos, e))); pos = e + 1; } return v.length; });
time('split kept', () => { const v: unknown[] = []; for (const it of splitJsonObjects(text)) if (it.ok) v.push(it.value); return v.length; });
const now = new Date();
time('split+normalize kept', () => { const n = createEventNormalizer('dns', now, { mayReuseInput: true }); const v: unknown[] = []; for (const it of splitJsonObjects(text)) { const r = n(it.ok ? it.value : null); if (r.ok) v.push(r.event); } return v.length; });
time('split+normalize copy kept', () => { const n = createEventNormalizer('dns', now); const v: unknown[] = []; for (const it of splitJsonObjects(text)) { const r = n(it.ok ? it.value : null); if (r.ok) v.push(r.event); } return v.length; });
function* gen(text: string): Generator<{ ok: true; value: unknown }> { let pos = 0; while (pos < text.length) { let e = text.indexOf('\n', pos); if (e === -1) e = text.length; let v; try { v = JSON.parse(text.slice(pos, e)); } catch { v = null; } yield { ok: true, value: v }; pos = e + 1; } }
time('simple generator kept', () => { const v: unknown[] = []; for (const it of gen(text)) v.push(it.value); return v.length; });
function tp(s: string) { try { return JSON.parse(s); } catch { return undefined; } }
time('baseline with tryParse', () => { const v: unknown[] = []; let pos = 0; while (pos < text.length) { let e = text.indexOf('\n', pos); if (e === -1) e = text.length; v.push(tp(text.slice(pos, e))); pos = e + 1; } return v.length; });
time('baseline kept again', () => { const v: unknown[] = []; let pos = 0; while (pos < text.length) { let e = text.indexOf('\n', pos); if (e === -1) e = text.length; v.push(JSON.parse(text.slice(pos, e))); pos = e + 1; } return v.length; });
time('split kept again', () => { const v: unknown[] = []; for (const it of splitJsonObjects(text)) if (it.ok) v.push(it.value); return v.length; });
