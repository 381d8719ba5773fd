import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { api, freePort, type HttpResult } from '../vigil-process';
import { startLocalKafka, startLocalRedis, type LocalKafka, type LocalServer } from './local-servers';
import { serviceForPath } from './routing';
import { ServiceProcess, type ServiceApp } from './service-process';

export interface ClusterOptions {
  /** Replicas of the ingest gateway (default 2) and of the scoring engine (default 2); one of each other app. */
  gateways?: number;
  scoringEngines?: number;
  /** The bootstrap key every test can use; default a fixed test key. */
  key?: string;
  /** Extra environment for every service (e.g. VIGIL_RATE_LIMIT, VIGIL_VISIBILITY_DELAY_MS). */
  env?: Record<string, string>;
}

export interface RequestInit {
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** API key; default the bootstrap key, null for none. */
  key?: string | null;
  /** The replica to send to; default: the path's service, replicas taken in turn. */
  via?: ServiceProcess;
}

const DEFAULT_KEY = 'vgl_distributedE2eBootstrapKey0000001';
/** Start order: account first (creates the topics and the bootstrap key), then everything else at once. */
const FIRST: ServiceApp = 'account';

/**
 * The console runs in findings-api, which has no account or rules service: point it at theirs. The operator
 * token is one file that the account, rules and findings-api services all read (VIGIL_ADMIN_TOKEN_FILE, as in
 * docker-compose.yml), written before their first start.
 */
function wireConsole(services: ServiceProcess[], tokenFile: string): void {
  const one = (app: ServiceApp) => services.find((s) => s.spec.app === app)!;
  fs.mkdirSync(path.dirname(tokenFile), { recursive: true });
  fs.writeFileSync(tokenFile, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
  for (const app of ['account', 'rules', 'findings-api'] as const) one(app).spec.env.VIGIL_ADMIN_TOKEN_FILE = tokenFile;
  Object.assign(one('findings-api').spec.env, {
    VIGIL_ACCOUNT_URL: one('account').baseUrl,
    VIGIL_RULES_URL: one('rules').baseUrl,
  });
}

/**
 * The five Vigil services as separate processes over a real Kafka broker and a real Redis, each service with its
 * own port and data directory (embedded chdb: every service owns its databases), and a client that routes
 * `/v1/...` paths to the right service. `stop()` tears everything down; a process exit hook kills whatever
 * is left if the test runner dies first.
 */
export class DistributedCluster {
  private readonly rotation = new Map<ServiceApp, number>();
  private readonly exitHook = () => this.stopNow();

  private constructor(
    readonly kafka: LocalKafka,
    readonly redis: LocalServer,
    readonly services: ServiceProcess[],
    readonly key: string,
    /** Data directories and logs (`<name>.log`) of every service. */
    readonly workDir: string,
  ) {
    process.once('exit', this.exitHook);
  }

  static async start(options: ClusterOptions = {}): Promise<DistributedCluster> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cluster-'));
    const [kafka, redis] = await Promise.allSettled([startLocalKafka(), startLocalRedis()]);
    if (kafka.status === 'rejected' || redis.status === 'rejected') {
      if (kafka.status === 'fulfilled') await kafka.value.stop();
      if (redis.status === 'fulfilled') await redis.value.stop();
      const reasons = [kafka, redis].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason));
      throw new Error(`cannot start the cluster's servers: ${reasons.join('; ')}`);
    }
    const key = options.key ?? DEFAULT_KEY;
    const shared = {
      KAFKA_BROKERS: kafka.value.address,
      REDIS_URL: redis.value.address,
      VIGIL_BOOTSTRAP_KEY: key,
      VIGIL_LOG_LEVEL: 'warn',
      ...options.env,
    };
    const layout: [ServiceApp, number][] = [
      ['account', 1],
      ['rules', 1],
      ['findings-api', 1],
      ['scoring-engine', options.scoringEngines ?? 2],
      ['ingest-gateway', options.gateways ?? 2],
    ];
    const services: ServiceProcess[] = [];
    for (const [app, replicas] of layout) {
      for (let i = 1; i <= replicas; i++) {
        const name = replicas > 1 ? `${app}-${i}` : app;
        services.push(
          new ServiceProcess({ app, name, port: await freePort(), dataDir: path.join(workDir, name), logFile: path.join(workDir, `${name}.log`), env: { ...shared } }),
        );
      }
    }
    wireConsole(services, path.join(workDir, 'operator', 'admin-token'));
    const cluster = new DistributedCluster(kafka.value, redis.value, services, key, workDir);
    try {
      await Promise.all(services.filter((s) => s.spec.app === FIRST).map((s) => s.start()));
      await Promise.all(services.filter((s) => s.spec.app !== FIRST).map((s) => s.start()));
    } catch (error) {
      const logs = cluster.logTails();
      await cluster.stop();
      throw new Error(`${(error as Error).message}\n${logs}`);
    }
    return cluster;
  }

  replicas(app: ServiceApp): ServiceProcess[] {
    return this.services.filter((s) => s.spec.app === app);
  }

  service(name: string): ServiceProcess {
    const found = this.services.find((s) => s.name === name);
    if (!found) throw new Error(`no service named ${name} (have ${this.services.map((s) => s.name).join(', ')})`);
    return found;
  }

  get gateways(): ServiceProcess[] {
    return this.replicas('ingest-gateway');
  }

  get scoringEngines(): ServiceProcess[] {
    return this.replicas('scoring-engine');
  }

  /** The next replica, in turn, of the service that serves `pathAndQuery`. */
  route(pathAndQuery: string): ServiceProcess {
    const app = serviceForPath(pathAndQuery);
    const replicas = this.replicas(app);
    const turn = this.rotation.get(app) ?? 0;
    this.rotation.set(app, turn + 1);
    return replicas[turn % replicas.length];
  }

  /** A request with the API key, to `init.via` or to the service that serves the path. */
  request<T = any>(method: string, pathAndQuery: string, init: RequestInit = {}): Promise<HttpResult<T>> {
    const target = init.via ?? this.route(pathAndQuery);
    const key = init.key === undefined ? this.key : init.key;
    return api<T>({ baseUrl: target.baseUrl, key: key ?? '' }, method, pathAndQuery, { body: init.body, headers: init.headers, key });
  }

  /** The operator token of the account, rules and findings-api services (`Authorization: Bearer ...` on /admin/*). */
  adminToken(): string {
    return fs.readFileSync(path.join(this.workDir, 'operator', 'admin-token'), 'utf8').trim();
  }

  /** The tail of every service's log, for failure messages. */
  logTails(lines = 25): string {
    return this.services.map((s) => `----- ${s.name} (${s.spec.logFile}) -----\n${s.logTail(lines)}`).join('\n');
  }

  /** Runs `body`; when it throws, the error message gains every service's log tail. */
  async withLogsOnFailure<T>(body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      const wrapped = error instanceof Error ? error : new Error(String(error));
      wrapped.message += `\n\nservice logs (${this.workDir}):\n${this.logTails()}`;
      throw wrapped;
    }
  }

  /** Stops every service (SIGTERM, then SIGKILL), then Kafka and Redis; removes the work directory unless `keep`. */
  async stop(options: { keep?: boolean } = {}): Promise<void> {
    process.removeListener('exit', this.exitHook);
    await Promise.allSettled(this.services.map((s) => s.kill('SIGTERM')));
    const stopped = await Promise.allSettled([this.kafka.stop(), this.redis.stop()]);
    if (!options.keep) fs.rmSync(this.workDir, { recursive: true, force: true });
    const failure = stopped.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private stopNow(): void {
    for (const service of this.services) service.killNow();
    this.kafka.stopNow();
    this.redis.stopNow();
  }
}
