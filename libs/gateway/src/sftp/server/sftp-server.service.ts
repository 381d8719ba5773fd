import * as net from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Server, utils, type AuthContext, type Connection } from 'ssh2';
import { VIGIL_CONFIG, type SftpConfig, type VigilConfig } from '@vigil/config';
import { publicKeyBlob, sshFingerprint } from '../keys/public-key';
import { SftpKeyRegistry } from '../keys/sftp-key-registry.service';
import { sftpMetrics } from '../sftp-metrics';
import { SftpUploads } from '../upload/sftp-uploads.service';
import { loadOrCreateHostKey } from './host-key';
import { SftpSession } from './sftp-session';

/** A connection must sign in within this time. */
const AUTH_TIMEOUT_MS = 30_000;
/** A connection with no traffic for this long is closed. */
const IDLE_TIMEOUT_MS = 10 * 60_000;
const MAX_AUTH_ATTEMPTS = 6;

/**
 * The SFTP endpoint of the ingest gateway (on when `VIGIL_SFTP_PORT` is set): SSH with public-key sign-in only,
 * the user name being the workspace id and the keys those registered for it (`vigil sftp-keys`); the `sftp`
 * subsystem only — no shell, exec, port forwarding or agent.
 */
@Injectable()
export class SftpServerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SftpIngest');
  private readonly config?: SftpConfig;
  private tcp?: net.Server;
  private ssh?: Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    @Inject(VIGIL_CONFIG) config: VigilConfig,
    private readonly keys: SftpKeyRegistry,
    private readonly uploads: SftpUploads,
  ) {
    this.config = config.sftp;
  }

  /** The port listened on (useful with port 0 in tests); undefined when off. */
  get port(): number | undefined {
    const address = this.tcp?.address();
    return typeof address === 'object' && address !== null ? address.port : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const config = this.config;
    if (!config) return;
    const hostKey = loadOrCreateHostKey(config.hostKeyFile);
    if (hostKey.generated) this.logger.log(`generated the SFTP host key ${config.hostKeyFile}`);
    this.ssh = new Server({ hostKeys: [hostKey.privateKey], ident: 'VigilSFTP' }, (client, info) => this.connection(client, info.ip));
    const tcp = net.createServer((socket) => {
      if (this.sockets.size >= config.maxConnections) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      sftpMetrics.connections(1);
      socket.once('close', () => {
        this.sockets.delete(socket);
        sftpMetrics.connections(-1);
      });
      socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
      socket.on('error', () => undefined);
      this.ssh!.injectSocket(socket);
    });
    this.tcp = tcp;
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(config.port, config.host, () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    this.logger.log(`SFTP ingest listening on ${config.host}:${this.port} (host key ${hostKey.fingerprint}; user = workspace id)`);
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.tcp) return;
    const closed = new Promise<void>((resolve) => this.tcp!.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private connection(client: Connection, ip: string): void {
    let workspaceId: string | undefined;
    let attempts = 0;
    const signIn = setTimeout(() => client.end(), AUTH_TIMEOUT_MS);
    client.on('error', (error) => this.logger.debug(`SFTP connection from ${ip}: ${error.message}`));
    client.on('authentication', (ctx) => {
      if (++attempts > MAX_AUTH_ATTEMPTS) {
        ctx.reject([]);
        client.end();
        return;
      }
      if (this.verify(ctx)) {
        workspaceId = ctx.username;
        ctx.accept();
        return;
      }
      // A public-key query (no signature yet) for an unknown key, or a method other than publickey.
      if (ctx.method !== 'none') {
        sftpMetrics.authFailure();
        this.logger.warn(`SFTP sign-in refused for user ${JSON.stringify(ctx.username.slice(0, 80))} from ${ip} (${ctx.method}${ctx.method === 'publickey' ? ` ${keyFingerprint(ctx)}` : ''})`);
      }
      ctx.reject(['publickey']);
    });
    client.on('ready', () => {
      clearTimeout(signIn);
      const workspace = workspaceId!;
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => {
          new SftpSession(acceptSftp(), workspace, ip, this.uploads, (what, path, reason) =>
            this.logger.warn(`SFTP ${what} refused for workspace ${workspace} from ${ip}: ${JSON.stringify(path.slice(0, 200))}: ${reason}`),
          );
        });
        for (const refused of ['exec', 'shell', 'pty', 'x11', 'env', 'auth-agent', 'subsystem'] as const) {
          session.on(refused as 'exec', (_accept: unknown, reject: (() => void) | undefined) => reject?.());
        }
      });
      client.on('tcpip', (_accept, reject) => reject());
      client.on('openssh.streamlocal', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
    });
    client.on('close', () => clearTimeout(signIn));
  }

  /** Public-key sign-in against the workspace's registered keys; a query without signature is answered "ok". */
  private verify(ctx: AuthContext): boolean {
    if (ctx.method !== 'publickey') return false;
    const key = this.keys.keysOf(ctx.username).find((candidate) => candidate.algorithm === ctx.key.algo && publicKeyBlob(candidate.publicKey).equals(ctx.key.data));
    if (!key) return false;
    if (!ctx.signature) return true;
    const parsed = utils.parseKey(key.publicKey);
    if (parsed instanceof Error || Array.isArray(parsed)) return false;
    return parsed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true;
  }
}

function keyFingerprint(ctx: AuthContext): string {
  return ctx.method === 'publickey' ? `key ${sshFingerprint(ctx.key.data)}` : '';
}
