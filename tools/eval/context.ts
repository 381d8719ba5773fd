import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import { parseTelemetryBatch } from '@vigil/ingest';
import { createRng, networkResolvers } from '@vigil/testing';
import { lofoModels, type FoldModel } from '../dga/lofo';

/** What every section of the evaluation shares: options, the shared data, and engine runs through the gateway parser. */
export interface EvalContext {
  /** The shared directory (`<shared>/data/...`). */
  sharedDir: string;
  dataDir: string;
  /** Fewer leave-out models (groups of families) and smaller traffic simulations. */
  quick: boolean;
  /** Worker processes for model training. */
  workers: number;
  log(line: string): void;
  /** The leave-family-out models (trained once per run, cached across runs). */
  dgaFolds(): Promise<FoldModel[]>;
  /** Events through the gateway's parser (NDJSON → validation → normalisation) into one engine, as over HTTP. */
  runEngine(type: TelemetryType, events: TelemetryEvent[], engine?: DetectionEngine): { detections: Set<string>; alerts: number };
  /** Start of the simulated hour the engine-run sections place their events in. */
  t0: number;
}

export function createContext(options: { sharedDir: string; quick: boolean; workers: number }): EvalContext {
  const intel = new IndicatorStore();
  // The generated network's resolvers, configured in the engine as an operator would (VIGIL_DNS_RESOLVERS).
  const configuredResolvers = networkResolvers();
  const rng = createRng('eval-detections');
  const dataDir = `${options.sharedDir}/data`;
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  let folds: Promise<FoldModel[]> | undefined;
  return {
    ...options,
    dataDir,
    log,
    t0: Date.now() - 3_600_000,
    dgaFolds: () => (folds ??= lofoModels({ dataDir, quick: options.quick, workers: options.workers, log })),
    runEngine(type, events, engine = new DetectionEngine({ intel, configuredResolvers })) {
      const detections = new Set<string>();
      let alerts = 0;
      for (let i = 0; i < events.length; i += 500) {
        const body = Buffer.from(events.slice(i, i + 500).map((event) => JSON.stringify(event)).join('\n') + '\n');
        const parsed = parseTelemetryBatch(type, body, new Date());
        const batch: TelemetryBatch = { v: 1, workspaceId: 'eval', type, batchId: `${type}-${i}-${rng.next()}`, receivedAt: Date.now(), events: parsed.events };
        const out = engine.process(batch);
        alerts += out.alerts.length;
        for (const f of out.findings) {
          const key = (f.finding.enrichments as { data: { aggregation: { key: { detections: { id: string }[] } } } }[])[0].data.aggregation.key;
          key.detections.forEach((d) => detections.add(d.id));
        }
      }
      return { detections, alerts };
    },
  };
}
