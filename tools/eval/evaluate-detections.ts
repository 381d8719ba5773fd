/**
 * `npm run eval:detections`: detection quality, measured with the engine's own code, one section per family of
 * detections (each a module of this folder returning tables printed by table.ts). Events reach the engine
 * through the gateway's own parser (NDJSON → validation → normalisation), as over HTTP.
 *
 *   node -r ./tools/register.cjs tools/eval/evaluate-detections.ts [<shared dir>] [--quick] [--workers N] [--only <section name part>]
 *
 * --quick: fewer leave-family-out models (groups of families) and smaller simulations; --workers: processes
 * for model training (default: up to 2); --only: run the sections whose name contains the text.
 * To add a section: write `tools/eval/<part>.ts` exporting an EvalSection, and list it in SECTIONS below.
 */
import { cpus } from 'node:os';
import { sharedDir } from '@vigil/testing';
import { benignTraffic } from './benign-traffic';
import { createContext } from './context';
import { dgaPerDomain } from './dga-per-domain';
import { dgaPerHost } from './dga-per-host';
import { dnsTunnelPerQuery } from './dns-tunnel';
import { flightsimRuns } from './flightsim';
import { imposterDomains } from './imposter';
import { formatTable, type EvalSection } from './table';
import { suspiciousTls } from './tls';
import { tunnelTools } from './tunnels';

const SECTIONS: EvalSection[] = [
  dgaPerDomain,
  dgaPerHost,
  dnsTunnelPerQuery,
  tunnelTools,
  imposterDomains,
  suspiciousTls,
  flightsimRuns,
  benignTraffic,
];

async function main(argv: string[]): Promise<void> {
  const valued = new Set(['--workers', '--only']);
  const value = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const positional = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
  const context = createContext({
    sharedDir: positional[0] ?? sharedDir(),
    quick: argv.includes('--quick'),
    workers: Number(value('--workers') ?? Math.min(2, cpus().length)),
  });
  const only = value('--only');
  console.log(`# Detection quality${context.quick ? ' (--quick)' : ''}\n`);
  for (const section of SECTIONS) {
    if (only !== undefined && !section.name.toLowerCase().includes(only.toLowerCase())) continue;
    const started = Date.now();
    const tables = await section.run(context);
    context.log(`${section.name}: ${Math.round((Date.now() - started) / 1000)} s`);
    for (const table of tables) console.log(`${formatTable(table)}\n`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
