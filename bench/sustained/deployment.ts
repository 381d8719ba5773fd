/**
 * What the sustained benchmark runs against: the embedded all-in-one (one process), or the split deployment
 * (`DistributedCluster`: Kafka, Redis, gateways, scoring engines, findings-api, account and rules as separate
 * processes). Either way: where the fleet posts, where findings and the account status are read, and which
 * processes to sample.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DistributedCluster, startVigil, tempDataDir, type LocalServer, type ServiceApp, type VigilProcess } from '@vigil/testing';
import type { ProbeTargets } from './probes';
import type { Counted, SampledProcess } from './sampler';

type Target = Pick<VigilProcess, 'baseUrl' | 'key'>;

export interface Deployment {
  /** The fleet's targets; client i posts to gateways[i mod n]. */
  gateways: Target[];
  probes: ProbeTargets;
  /** Serves GET /v1/account/status. */
  status: Target;
  processes: SampledProcess[];
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  env: Record<string, string>;
  profileDir?: string;
  /** Keep the all-in-one's data directory after the run, for inspection. */
  keepData?: boolean;
  /** Node.js or V8 flags for the all-in-one. */
  nodeArgs?: string[];
  /** Where the all-in-one's own output goes (e.g. with `--node-arg --trace-gc`); by default it is dropped. */
  serverLog?: string;
}

const BENCH_ENV = { VIGIL_RATE_LIMIT: '100000000/60s' };

export async function startAllInOne(options: DeploymentOptions): Promise<Deployment> {
  // Ours: removed after the run, or kept with --keep-data.
  const vigil = await startVigil({
    dataDir: tempDataDir(),
    env: { ...BENCH_ENV, ...options.env },
    nodeArgs: [...(options.nodeArgs ?? []), ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [])],
    outputFile: options.serverLog,
  });
  return {
    gateways: [vigil],
    probes: { ingest: vigil, findings: vigil },
    status: vigil,
    processes: [{ role: 'all-in-one', pid: () => vigil.child.pid!, metrics: { baseUrl: vigil.baseUrl, counts: ['accepted', 'scored'] } }],
    // The store of a run is gigabytes and no later run re-uses it.
    stop: async () => {
      await vigil.stop('SIGINT');
      if (options.keepData) console.log(`\ndata directory kept: ${vigil.dataDir}`);
      else fs.rmSync(vigil.dataDir, { recursive: true, force: true });
    },
  };
}

const COUNTS: Partial<Record<ServiceApp, readonly Counted[]>> = { 'ingest-gateway': ['accepted'], 'scoring-engine': ['scored'] };

/** The pid a tools/kafka or tools/redis script wrote into the server's state directory. */
function scriptPid(server: LocalServer, file: string): () => number | undefined {
  let pid: number | undefined;
  return () => {
    if (pid === undefined) {
      try {
        pid = Number(fs.readFileSync(path.join(server.stateDir, file), 'utf8').trim()) || undefined;
      } catch {
        return undefined;
      }
    }
    return pid;
  };
}

export async function startSplit(options: DeploymentOptions & { gateways: number; scoringEngines: number }): Promise<Deployment> {
  const cluster = await DistributedCluster.start({
    gateways: options.gateways,
    scoringEngines: options.scoringEngines,
    env: { ...BENCH_ENV, ...options.env },
  });
  const target = (app: ServiceApp): Target => ({ baseUrl: cluster.replicas(app)[0].baseUrl, key: cluster.key });
  const gateways = cluster.gateways.map((g) => ({ baseUrl: g.baseUrl, key: cluster.key }));
  return {
    gateways,
    probes: { ingest: gateways[0], findings: target('findings-api') },
    status: target('account'),
    processes: [
      ...cluster.services.map((s): SampledProcess => ({ role: s.spec.app, pid: () => s.pid, metrics: { baseUrl: s.baseUrl, counts: COUNTS[s.spec.app] ?? [] } })),
      { role: 'kafka', pid: scriptPid(cluster.kafka, 'kafka.pid') },
      { role: 'redis', pid: scriptPid(cluster.redis, 'redis.pid') },
    ],
    stop: () => cluster.stop(),
  };
}
