import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AccountModule } from '@vigil/account';
import { ConsoleModule } from '@vigil/console';
import { openApiDocument, TOPICS } from '@vigil/contracts';
import { FindingsModule } from '@vigil/findings';
import { GatewayModule } from '@vigil/gateway';
import { RulesModule } from '@vigil/rules';
import { SCORING_GROUP, ScoringModule } from '@vigil/scoring';
import { TelemetryArchiveModule } from '@vigil/telemetry-archive';
import { loadKustomization, patchTargets, readYamlDocuments, type K8sObject, type KustomizeTree } from './kustomize-tree';
import { nginxLocationFor, parseNginxRoutes } from './nginx-routes';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const repoFile = (...parts: string[]) => path.join(ROOT, ...parts);

/** The feature modules of each separately deployed service, as composed by apps/<service>/src/main.ts. */
const SERVICE_MODULES: Record<string, Type[]> = {
  account: [AccountModule],
  rules: [RulesModule],
  'ingest-gateway': [GatewayModule],
  'scoring-engine': [ScoringModule],
  'findings-api': [FindingsModule, TelemetryArchiveModule, ConsoleModule],
};
const SERVICES = Object.keys(SERVICE_MODULES);

/** Per-instance endpoints every service serves itself: probed by the orchestrator, never routed publicly. */
const PER_INSTANCE_PATHS = ['/healthz', '/readyz', '/metrics'];
const openApiPaths = Object.keys(openApiDocument.paths);
const publicPaths = openApiPaths.filter((p) => !PER_INSTANCE_PATHS.includes(p));
/** The web console (page, assets, JSON API): public, outside the OpenAPI document, served by one service. */
const CONSOLE_PATHS = ['/console', '/console/assets/index-abc123.js', '/console/api/session', '/console/api/findings', '/console/api/keys/abc/revoke'];

interface RouteTemplate {
  method: string;
  pattern: RegExp;
  template: string;
}

/** The routes a Nest module's controllers declare (Nest's own metadata), as regexes over concrete paths. */
function routesOf(module: Type): RouteTemplate[] {
  const controllers: Type[] = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? [];
  return controllers.flatMap((controller) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype)
      .filter((name) => name !== 'constructor' && Reflect.hasMetadata(METHOD_METADATA, prototype[name] as object))
      .map((name) => {
        const handler = prototype[name] as object;
        const template = '/' + [base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].join('/').split('/').filter(Boolean).join('/');
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+');
        return { method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number], pattern: new RegExp(`^${source}$`), template };
      });
  });
}

/** The service whose controllers serve `path` (the same OpenAPI document is served by every service). */
function ownerOf(path: string): string[] {
  if (path === '/openapi.json') return SERVICES;
  return SERVICES.filter((service) => SERVICE_MODULES[service].some((module) => routesOf(module).some((route) => route.pattern.test(path))));
}

/** Kubernetes Ingress matching: Exact first, then the longest Prefix matched element by element. */
function ingressBackendFor(ingress: K8sObject, requestPath: string): string | undefined {
  type IngressPath = { path: string; pathType: string; backend: { service: { name: string } } };
  const rules = (ingress.spec as { rules: { http: { paths: IngressPath[] } }[] }).rules.flatMap((rule) => rule.http.paths);
  const exact = rules.find((r) => r.pathType === 'Exact' && r.path === requestPath);
  if (exact) return exact.backend.service.name;
  const segments = requestPath.split('/').filter(Boolean);
  const prefix = rules
    .filter((r) => r.pathType === 'Prefix')
    .filter((r) => {
      const own = r.path.split('/').filter(Boolean);
      return own.every((segment, i) => segments[i] === segment);
    })
    .sort((a, b) => b.path.length - a.path.length)[0];
  return prefix?.backend.service.name;
}

describe('service route table (from the controllers)', () => {
  it('each app main.ts composes the modules this check assumes', () => {
    for (const [service, modules] of Object.entries(SERVICE_MODULES)) {
      const main = readFileSync(repoFile('apps', service, 'src', 'main.ts'), 'utf8');
      for (const module of modules) expect(main).toContain(module.name);
    }
  });

  it('every public OpenAPI path is served by exactly one service (or by all, for /openapi.json)', () => {
    for (const p of publicPaths) {
      const owners = ownerOf(p);
      expect({ path: p, owners: owners.length === SERVICES.length || owners.length === 1 }).toEqual({ path: p, owners: true });
    }
    expect(ownerOf('/v1/events/dns')).toEqual(['ingest-gateway']);
    expect(ownerOf('/v1/findings')).toEqual(['findings-api']);
  });
});

describe('reverse proxy (deploy/nginx/vigil.conf)', () => {
  const routes = parseNginxRoutes(readFileSync(repoFile('deploy', 'nginx', 'vigil.conf'), 'utf8'));
  const hostOf = (upstream: string | undefined) => (upstream ? routes.upstreams.get(upstream)?.map((s) => s.split(':')[0]) : undefined);

  it.each(publicPaths)('routes %s to the service that serves it', (p) => {
    const location = nginxLocationFor(routes, p);
    const hosts = hostOf(location?.upstream);
    expect(hosts).toHaveLength(1);
    expect(ownerOf(p)).toContain(hosts![0]);
  });

  it.each(CONSOLE_PATHS)('routes the console path %s to the service that serves the console', (p) => {
    const hosts = hostOf(nginxLocationFor(routes, p)?.upstream);
    expect(hosts).toHaveLength(1);
    expect(ownerOf(p)).toEqual(hosts);
  });

  it('keeps the operator API and unknown paths out (404), and has its own /healthz', () => {
    expect(nginxLocationFor(routes, '/admin/v1/keys')).toMatchObject({ path: '/', returns: 404 });
    expect(nginxLocationFor(routes, '/v1/unknown')).toMatchObject({ returns: 404 });
    expect(nginxLocationFor(routes, '/healthz')).toMatchObject({ returns: 200 });
  });
});

describe('docker-compose.yml', () => {
  const [compose] = readYamlDocuments(repoFile('docker-compose.yml')) as {
    services: Record<string, Record<string, any>>;
    volumes: Record<string, unknown>;
  }[];
  const services = compose.services;

  it('keeps the all-in-one service in the default profile', () => {
    expect(services.vigil.profiles).toBeUndefined();
    expect(services.vigil.build).toMatchObject({ dockerfile: 'deploy/Dockerfile', args: { APP: 'all-in-one' } });
  });

  it('runs Kafka in KRaft mode, ClickHouse, Redis and the five services under the distributed profile', () => {
    expect(services.kafka.image).toMatch(/^apache\/kafka:/);
    expect(services.kafka.environment.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(services.clickhouse.image).toMatch(/^clickhouse\/clickhouse-server:/);
    expect(services.redis.image).toMatch(/^redis:/);
    for (const name of [...SERVICES, 'kafka', 'clickhouse', 'redis', 'proxy']) expect(services[name]?.profiles).toEqual(['distributed']);
    for (const name of SERVICES) {
      expect(services[name].build).toMatchObject({ dockerfile: 'deploy/Dockerfile', args: { APP: name } });
      expect(services[name].environment).toMatchObject({ KAFKA_BROKERS: 'kafka:9092', REDIS_URL: 'redis://redis:6379' });
      expect(services[name].environment.CLICKHOUSE_URL).toMatch(/^http:\/\/vigil:.*@clickhouse:8123$/);
    }
    expect(services['ingest-gateway'].deploy.replicas).toBe(2);
  });

  it('gives every service a healthcheck and points depends_on, volumes and the proxy config at things that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, healthcheck: Array.isArray(service.healthcheck?.test) }).toEqual({ name, healthcheck: true });
      for (const dependency of Object.keys(service.depends_on ?? {})) expect(services).toHaveProperty([dependency]);
      for (const volume of (service.volumes ?? []) as string[]) {
        const [source] = volume.split(':');
        if (source.startsWith('.')) expect(existsSync(repoFile(source))).toBe(true);
        else expect(compose.volumes).toHaveProperty([source]);
      }
    }
    expect(services.proxy.volumes).toContain('./deploy/nginx/vigil.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it("wires the console in findings-api to the account and rules services, with the operator token they share", () => {
    const env = services['findings-api'].environment;
    for (const [variable, service] of [['VIGIL_ACCOUNT_URL', 'account'], ['VIGIL_RULES_URL', 'rules']]) {
      const url = new URL(env[variable]);
      expect({ variable, host: url.hostname, port: url.port }).toEqual({ variable, host: service, port: services[service].environment.VIGIL_PORT });
    }
    // One token file: written by the account service on a volume that rules and findings-api mount read-only.
    const tokenFile: string = services.account.environment.VIGIL_ADMIN_TOKEN_FILE;
    expect(tokenFile).toMatch(/^\/[^:]+\/admin-token$/);
    const tokenDir = path.posix.dirname(tokenFile);
    const mountOf = (name: string) => (services[name].volumes as string[]).map((v) => v.split(':')).find(([, target]) => target === tokenDir);
    const [volume, , accountMode] = mountOf('account')!;
    expect(compose.volumes).toHaveProperty([volume]);
    expect(accountMode).toBeUndefined();
    for (const name of ['rules', 'findings-api']) {
      expect({ name, file: services[name].environment.VIGIL_ADMIN_TOKEN_FILE }).toEqual({ name, file: tokenFile });
      expect({ name, mount: mountOf(name) }).toEqual({ name, mount: [volume, tokenDir, 'ro'] });
      // The file exists only once the account service has started: they wait for it.
      expect(services[name].depends_on.account).toEqual({ condition: 'service_healthy' });
      expect(services[name].depends_on).toMatchObject({ kafka: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(services['findings-api'].depends_on.rules).toEqual({ condition: 'service_healthy' });
    expect(env.VIGIL_ACCOUNT_ADMIN_TOKEN).toBeUndefined();
    // A new named volume takes the owner of its mount point in the image: the unprivileged user must own it.
    const dockerfile = readFileSync(repoFile('deploy', 'Dockerfile'), 'utf8');
    const chown = /^RUN mkdir -p (.+) && chown 1000:1000 (.+)$/m.exec(dockerfile);
    expect(chown?.[2].split(' ')).toContain(tokenDir);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(repoFile('deploy', 'Dockerfile'), 'utf8');

  it('copies only paths that exist in the build context and runs the built app as a non-root user', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) expect({ source, exists: existsSync(repoFile(source)) }).toEqual({ source, exists: true });
    expect(dockerfile).toMatch(/^RUN npm ci --no-audit/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    // The node flags before the entry module are checked against SERVER_NODE_FLAGS in server-runtime-env.spec.ts.
    expect(dockerfile).toMatch(/^CMD \["node", ("--[a-z-]+(=\d+)?", )*"dist\/app\/main\.js"\]$/m);
  });

  it('builds every app it can be asked for (a project with compile and build targets)', () => {
    for (const app of [...SERVICES, 'all-in-one', 'cli']) {
      const project = JSON.parse(readFileSync(repoFile('apps', app, 'project.json'), 'utf8'));
      expect(project.targets.compile.options.outputPath).toBe(`dist/apps/${app}`);
      expect(project.targets.build.options.command).toBe(`node deploy/build/finish-app-build.cjs ${app}`);
    }
  });
});

describe('Kubernetes manifests (deploy/kustomize)', () => {
  const kustomizeDir = repoFile('deploy', 'kustomize');
  const overlays = readdirSync(path.join(kustomizeDir, 'overlays'));
  const trees: Record<string, KustomizeTree> = {
    base: loadKustomization(path.join(kustomizeDir, 'base')),
    ...Object.fromEntries(overlays.map((o) => [o, loadKustomization(path.join(kustomizeDir, 'overlays', o))])),
  };
  const find = (tree: KustomizeTree, kind: string, name: string) => tree.resources.find((r) => r.kind === kind && r.metadata.name === name);
  type Container = {
    name: string;
    image: string;
    livenessProbe?: { httpGet?: { path: string } };
    readinessProbe?: { httpGet?: { path: string } };
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
    securityContext?: Record<string, unknown>;
    envFrom?: { configMapRef?: { name: string } }[];
    env?: { valueFrom?: { secretKeyRef?: { name: string } } }[];
  };
  const podSpec = (workload: K8sObject) => (workload.spec as { template: { spec: { containers: Container[]; securityContext?: Record<string, unknown> } } }).template.spec;

  it('has the expected overlays and only known kinds', () => {
    expect(overlays.sort()).toEqual(['scaled', 'single-node']);
    const known = ['Namespace', 'ConfigMap', 'Secret', 'Deployment', 'StatefulSet', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'ScaledObject', 'PodDisruptionBudget'];
    for (const tree of Object.values(trees)) for (const r of tree.resources) expect(known).toContain(r.kind);
  });

  it('defines a Deployment and a Service for each of the five services, with probes, resources and a non-root context', () => {
    const base = trees.base;
    for (const service of SERVICES) {
      const deployment = find(base, 'Deployment', service)!;
      expect(deployment).toBeDefined();
      expect(find(base, 'Service', service)).toBeDefined();
      const spec = podSpec(deployment);
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      const [container] = spec.containers;
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    }
  });

  it('gives every workload of every overlay probes and resource requests and limits, and env sources that exist', () => {
    for (const [name, tree] of Object.entries(trees)) {
      for (const workload of tree.resources.filter((r) => r.kind === 'Deployment' || r.kind === 'StatefulSet')) {
        for (const container of podSpec(workload).containers) {
          const where = `${name}: ${workload.kind}/${workload.metadata.name}`;
          expect({ where, probes: Boolean(container.livenessProbe && container.readinessProbe) }).toEqual({ where, probes: true });
          expect({ where, requests: Object.keys(container.resources?.requests ?? {}).sort() }).toEqual({ where, requests: ['cpu', 'memory'] });
          expect({ where, limits: Object.keys(container.resources?.limits ?? {}).sort() }).toEqual({ where, limits: ['cpu', 'memory'] });
          for (const source of container.envFrom ?? []) if (source.configMapRef) expect(find(tree, 'ConfigMap', source.configMapRef.name)).toBeDefined();
          for (const variable of container.env ?? []) {
            const secret = variable.valueFrom?.secretKeyRef?.name;
            if (secret) expect(find(tree, 'Secret', secret)).toBeDefined();
          }
        }
      }
    }
  });

  it('selects existing pods from every Service', () => {
    for (const tree of Object.values(trees)) {
      for (const service of tree.resources.filter((r) => r.kind === 'Service')) {
        const selector = (service.spec as { selector: Record<string, string> }).selector;
        const matched = tree.resources.filter((r) => (r.kind === 'Deployment' || r.kind === 'StatefulSet') &&
          Object.entries(selector).every(([k, v]) => (r.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels[k] === v));
        expect({ service: service.metadata.name, matched: matched.length }).toEqual({ service: service.metadata.name, matched: 1 });
      }
    }
  });

  it.each(publicPaths)('routes %s through the Ingress to the service that serves it', (p) => {
    const ingress = find(trees.base, 'Ingress', 'vigil')!;
    const backend = ingressBackendFor(ingress, p);
    expect(ownerOf(p)).toContain(backend);
    expect(find(trees.base, 'Service', backend!)).toBeDefined();
  });

  it('routes the web console to the service that serves it', () => {
    const ingress = find(trees.base, 'Ingress', 'vigil')!;
    expect(ownerOf('/console')).toEqual(['findings-api']);
    for (const p of CONSOLE_PATHS) expect({ p, backend: ingressBackendFor(ingress, p) }).toEqual({ p, backend: ownerOf(p)[0] });
  });

  it('does not expose the operator API or per-pod endpoints through the Ingress', () => {
    const ingress = find(trees.base, 'Ingress', 'vigil')!;
    for (const p of ['/admin/v1/keys', ...PER_INSTANCE_PATHS]) expect(ingressBackendFor(ingress, p)).toBeUndefined();
  });

  it('points every overlay patch at resources that exist', () => {
    for (const [name, tree] of Object.entries(trees)) {
      for (const patch of tree.patches) {
        const targets = patchTargets(patch, tree.resources);
        expect({ overlay: name, patch: patch.target ?? patch.documents.map((d) => `${d.kind}/${d.metadata.name}`), targets: targets.length > 0 })
          .toEqual({ overlay: name, patch: patch.target ?? patch.documents.map((d) => `${d.kind}/${d.metadata.name}`), targets: true });
      }
    }
  });

  it('autoscales the gateway on CPU and the scoring engine on its consumer lag, within the partition count', () => {
    const scaled = trees.scaled;
    const hpa = find(scaled, 'HorizontalPodAutoscaler', 'ingest-gateway')!;
    expect((hpa.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'ingest-gateway' });
    const scaledObject = find(scaled, 'ScaledObject', 'scoring-engine')!;
    const spec = scaledObject.spec as { scaleTargetRef: { name: string }; maxReplicaCount: number; triggers: { type: string; metadata: Record<string, string> }[] };
    expect(find(scaled, 'Deployment', spec.scaleTargetRef.name)).toBeDefined();
    expect(spec.maxReplicaCount).toBeLessThanOrEqual(TOPICS.events.partitions);
    expect(spec.triggers).toHaveLength(1);
    expect(spec.triggers[0].type).toBe('kafka');
    expect(spec.triggers[0].metadata).toMatchObject({ topic: TOPICS.events.name, consumerGroup: SCORING_GROUP });
    const config = find(scaled, 'ConfigMap', 'vigil-config')!;
    const patchedBrokers = scaled.patches.flatMap((p) => p.documents).find((d) => d.kind === 'ConfigMap')?.data as Record<string, string>;
    expect(spec.triggers[0].metadata.bootstrapServers).toBe(patchedBrokers?.KAFKA_BROKERS ?? (config.data as Record<string, string>).KAFKA_BROKERS);
    expect(find(trees['single-node'], 'ScaledObject', 'scoring-engine')).toBeUndefined();
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  const kubectlMissing = kubectl.status !== 0 ? 'kubectl is not installed' : undefined;
  (kubectlMissing ? it.skip : it)(`kubectl kustomize builds every overlay${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
    for (const overlay of overlays) {
      const build = spawnSync('kubectl', ['kustomize', path.join(kustomizeDir, 'overlays', overlay)], { encoding: 'utf8' });
      expect({ overlay, status: build.status, stderr: build.stderr }).toEqual({ overlay, status: 0, stderr: '' });
      expect(build.stdout).toContain('namespace: vigil');
    }
  });
});
