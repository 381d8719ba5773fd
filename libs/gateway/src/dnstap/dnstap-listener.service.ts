import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { VIGIL_CONFIG, type DnstapConfig, type VigilConfig } from '@vigil/config';
import type { DnsEvent } from '@vigil/contracts';
import { WorkspaceDirectoryService } from '@vigil/escalations';
import { TelemetryIntake } from '../telemetry-intake';
import { DnstapConnection, type PublishOutcome } from './dnstap-connection';
import { dnstapSchema } from './dnstap-message';
import { dnstapMetrics } from './dnstap-metrics';

/**
 * The dnstap endpoint of the ingest gateway (on when `VIGIL_DNSTAP_PORT` or `VIGIL_DNSTAP_SOCKET` is set):
 * Frame Streams over TCP and/or a Unix socket, as BIND, Unbound, Knot and CoreDNS send it. Every connection's
 * DNS events are attributed to the workspace `VIGIL_DNSTAP_WORKSPACE` and go through {@link TelemetryIntake}.
 */
@Injectable()
export class DnstapListenerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DnstapIngest');
  private readonly config?: DnstapConfig;
  private readonly servers: net.Server[] = [];
  private readonly connections = new Set<DnstapConnection>();
  private open = 0;

  constructor(
    @Inject(VIGIL_CONFIG) config: VigilConfig,
    private readonly intake: TelemetryIntake,
    private readonly workspaces: WorkspaceDirectoryService,
  ) {
    this.config = config.dnstap;
  }

  /** The TCP port listened on (port 0 in tests); undefined when there is no TCP listener. */
  get port(): number | undefined {
    const address = this.servers.find((server) => typeof server.address() === 'object')?.address();
    return typeof address === 'object' && address !== null ? address.port : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const config = this.config;
    if (!config) return;
    dnstapSchema(); // a missing or broken dnstap.proto fails the start, not the first sender
    if (config.port !== undefined) {
      const server = this.server('tcp');
      await listen(server, { port: config.port, host: config.host });
      this.logger.log(`dnstap ingest listening on tcp ${config.host}:${this.port} (workspace ${config.workspace})`);
    }
    if (config.socketPath !== undefined) {
      removeStaleSocket(config.socketPath);
      const server = this.server('unix');
      await listen(server, { path: config.socketPath });
      fs.chmodSync(config.socketPath, 0o660);
      this.logger.log(`dnstap ingest listening on unix ${config.socketPath} (workspace ${config.workspace})`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const closed = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    await Promise.all([...this.connections].map((connection) => connection.close()));
    await Promise.all(closed);
  }

  private server(kind: 'tcp' | 'unix'): net.Server {
    const server = net.createServer((socket) => this.accept(socket, kind));
    this.servers.push(server);
    return server;
  }

  private accept(socket: net.Socket, kind: 'tcp' | 'unix'): void {
    const config = this.config!;
    const remote = kind === 'tcp' ? `tcp ${socket.remoteAddress}:${socket.remotePort}` : `unix ${config.socketPath}`;
    socket.on('error', () => undefined);
    if (this.open >= config.maxConnections) {
      dnstapMetrics.closed('too_many_connections');
      this.logger.warn(`dnstap ${remote}: refused, ${config.maxConnections} connections are open (VIGIL_DNSTAP_MAX_CONNECTIONS)`);
      socket.destroy();
      return;
    }
    let workspaceId: string;
    try {
      workspaceId = this.workspaces.resolve(config.workspace).workspaceId;
    } catch (error) {
      dnstapMetrics.closed('unknown_workspace');
      this.logger.warn(`dnstap ${remote}: refused, VIGIL_DNSTAP_WORKSPACE: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
      return;
    }
    this.open++;
    dnstapMetrics.connections(1);
    const connection = new DnstapConnection(socket, {
      workspaceId,
      remote,
      maxFrameBytes: config.maxFrameBytes,
      publish: (workspace, events) => this.publish(workspace, events),
      logger: this.logger,
    });
    this.connections.add(connection);
    void connection.done.then(() => {
      this.connections.delete(connection);
      this.open--;
      dnstapMetrics.connections(-1);
    });
  }

  private async publish(workspaceId: string, events: DnsEvent[]): Promise<PublishOutcome> {
    const body = Buffer.from(events.map((event) => JSON.stringify(event)).join('\n'), 'utf8');
    const outcome = await this.intake.accept(workspaceId, 'dns', body);
    return outcome.notJson ? { accepted: 0, rejected: {} } : outcome;
  }
}

function listen(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A socket file left by a previous run is removed; any other file there is an error (never deleted). */
function removeStaleSocket(socketPath: string): void {
  fs.mkdirSync(path.dirname(socketPath), { recursive: true });
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`VIGIL_DNSTAP_SOCKET ${socketPath} exists and is not a socket`);
  fs.unlinkSync(socketPath);
}
