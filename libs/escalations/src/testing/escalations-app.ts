/* Test fixtures of this lib (not exported from the lib). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BUS, type Bus } from '@vigil/bus';
import { loadConfig, type VigilConfig } from '@vigil/config';
import { TOPICS, type WorkspaceRecord } from '@vigil/contracts';
import { createVigilApp } from '@vigil/platform';
import { EscalationsModule } from '../escalations.module';

export interface EscalationsApp {
  app: NestFastifyApplication;
  bus: Bus;
  config: VigilConfig;
  baseUrl: string;
  /** Calls the operator API with the admin token. */
  admin<T = any>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** The escalations feature on the real platform (local bus, embedded ClickHouse, HTTP) over `dataDir`. */
export async function startEscalationsApp(dataDir: string, env: Record<string, string> = {}): Promise<EscalationsApp> {
  const config = loadConfig({ VIGIL_DATA_DIR: dataDir, VIGIL_LOG_LEVEL: 'log', ...env });
  const app = await createVigilApp({ name: 'escalations-spec', features: [EscalationsModule] }, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.getHttpServer().address() as { port: number }).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  return {
    app,
    bus: app.get<Bus>(BUS),
    config,
    baseUrl,
    async admin(method, url, body) {
      const response = await fetch(baseUrl + url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => app.close(),
  };
}

/** Announces a workspace as the account service would. */
export async function announceWorkspace(bus: Bus, workspace: WorkspaceRecord): Promise<void> {
  await bus.publish(TOPICS.workspaces.name, [{ key: workspace.workspaceId, value: Buffer.from(JSON.stringify(workspace)) }]);
}
