/**
 * The task module of a scoring worker thread (loaded by WorkerPool in its thread, never imported elsewhere):
 * holds the engines of the partitions its thread was given, their customer rules and one state budget, and
 * answers the requests of {@link WorkerEngines} one after another.
 */
import { getHeapStatistics } from 'node:v8';
import { StateBudget } from '@vigil/detection-engine';
import { lowerThreadPriority } from '@vigil/platform';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import { IntelRuntime } from '../intel/intel-runtime';
import { isNewerRuleSet } from './engine-set';
import { LocalEngine } from './local-engine';
import { ENGINE_LOST, type ScoreReply, type ScoringRequest, type ThreadSetup, type WireRecord } from './worker-protocol';

interface ThreadState {
  budget: StateBudget;
  intel: IntelRuntime;
  configuredResolvers: string[];
  ruleSets: Map<string, WorkspaceRuleSet>;
  engines: Map<number, LocalEngine>;
}

let thread: Promise<ThreadState> | undefined;
/** When the budget's usage last went back with a reply. */
let usageReportedAt = 0;
const USAGE_REPORT_INTERVAL_MS = 1000;

async function setUp(setup: ThreadSetup): Promise<ThreadState> {
  lowerThreadPriority(setup.nice);
  const intel = await IntelRuntime.start(setup.intel, { seed: setup.seed, logger: { log: () => undefined, warn: (m: string) => console.warn(m) } });
  const ruleSets = new Map<string, WorkspaceRuleSet>();
  for (const set of setup.ruleSets) ruleSets.set(set.workspaceId, set);
  return { budget: new StateBudget({ capacityBytes: setup.capacityBytes }), intel, configuredResolvers: setup.configuredResolvers, ruleSets, engines: new Map() };
}

async function state(setup: ThreadSetup | undefined): Promise<ThreadState> {
  if (thread === undefined) {
    if (setup === undefined) throw lost('the scoring thread was restarted');
    thread = setUp(setup);
  }
  return thread;
}

function lost(message: string): Error {
  const error = new Error(message);
  error.name = ENGINE_LOST;
  return error;
}

function engineOf(s: ThreadState, engineId: number, create: boolean): LocalEngine {
  let engine = s.engines.get(engineId);
  if (engine === undefined) {
    if (!create) throw lost(`engine ${engineId} is not in this scoring thread`);
    engine = LocalEngine.create({ intel: s.intel.store, configuredResolvers: s.configuredResolvers, budget: s.budget }, s.ruleSets.values());
    s.engines.set(engineId, engine);
  }
  return engine;
}

const toWire = (records: { key: string; value: Buffer; headers?: Record<string, string> }[]): WireRecord[] => records.map((r) => ({ key: r.key, value: r.value, headers: r.headers }));

export async function handleScoringRequest(request: ScoringRequest): Promise<unknown> {
  switch (request.op) {
    case 'warm-up':
      return (await state(request.setup)).intel.store.sharedSeed;
    case 'score': {
      const s = await state(request.setup);
      const engine = engineOf(s, request.engineId, request.setup !== undefined);
      const records = request.records.map((r) => ({ key: r.key, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: r.headers }));
      const scored = engine.score(request.topic, records);
      const reply: ScoreReply = { findings: toWire(scored.findings), alerts: toWire(scored.alerts), deadLetters: toWire(scored.deadLetters), events: scored.events };
      if (Date.now() - usageReportedAt >= USAGE_REPORT_INTERVAL_MS) {
        reply.usage = s.budget.usage();
        const heap = getHeapStatistics();
        reply.heap = { usedBytes: heap.used_heap_size, totalBytes: heap.total_heap_size };
        reply.intel = s.intel.figures();
        usageReportedAt = Date.now();
      }
      return reply;
    }
    case 'restore': {
      const s = await state(request.setup);
      const data = request.snapshot;
      await engineOf(s, request.engineId, true).restore(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      return true;
    }
    case 'snapshot': {
      const s = await state(undefined);
      // Serialized and compressed here, not in the thread that serves HTTP.
      return engineOf(s, request.engineId, false).snapshot();
    }
    case 'rules': {
      if (thread === undefined) return true; // a thread set up later receives every rule set with its setup
      const s = await thread;
      if (!isNewerRuleSet(s.ruleSets.get(request.set.workspaceId), request.set)) return true;
      s.ruleSets.set(request.set.workspaceId, request.set);
      for (const engine of s.engines.values()) engine.sigma.apply(request.set);
      return true;
    }
    case 'drop':
      if (thread !== undefined) (await thread).engines.delete(request.engineId);
      return true;
  }
}
