import * as net from 'node:net';
import * as os from 'node:os';
import * as tls from 'node:tls';
import type { EscalationDestination, SyslogTarget } from '../destinations/destination';
import { cefForItem } from '../payload/cef';
import type { EscalationItem } from '../payload/escalation-item';
import { formatRfc5424, frameOctetCounted, syslogSeverity } from '../payload/syslog-message';
import { DeliveryError, describeCause, type EscalationTransport } from './transport';

/**
 * RFC 5424 messages over one long-lived TCP or TLS connection with RFC 6587 octet-counted framing. A message
 * counts as delivered once it has been handed to the operating system for the connection; syslog has no
 * application-level acknowledgement, so a connection that breaks right after a write can lose what was in
 * flight (RELP would be needed to close that gap). A broken connection is re-opened on the next attempt.
 */
export class SyslogTransport implements EscalationTransport {
  private readonly target: SyslogTarget;
  private readonly hostname: string;
  private socket: net.Socket | undefined;
  private connecting: Promise<net.Socket> | undefined;

  constructor(private readonly destination: EscalationDestination) {
    if (destination.target.kind !== 'syslog') throw new TypeError('SyslogTransport needs a syslog destination');
    this.target = destination.target;
    this.hostname = this.target.hostname ?? os.hostname();
  }

  private get where(): string {
    return `syslog ${this.target.transport} ${this.target.host}:${this.target.port}`;
  }

  /** The framed message for an item (exposed for tests and for `vigil escalations test`). */
  frame(item: EscalationItem): Buffer {
    const message = formatRfc5424({
      facility: this.target.facility,
      severity: syslogSeverity(item.severity),
      time: item.time,
      hostname: this.hostname,
      appName: this.target.appName,
      procId: String(process.pid),
      msgId: item.source === 'finding' ? 'finding' : 'alert',
      msg: this.target.encoding === 'cef' ? cefForItem(item) : item.json,
    });
    return frameOctetCounted(message);
  }

  async send(item: EscalationItem, signal: AbortSignal): Promise<void> {
    const frame = this.frame(item);
    const socket = await this.connect(signal);
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new DeliveryError(`${this.where}: cancelled`, true));
      signal.addEventListener('abort', onAbort, { once: true });
      socket.write(frame, (error) => {
        signal.removeEventListener('abort', onAbort);
        if (error) {
          this.drop(socket);
          reject(new DeliveryError(`${this.where}: ${describeCause(error)}`, true));
        } else resolve();
      });
    });
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      setTimeout(() => socket.destroy(), 2_000).unref();
    });
  }

  private drop(socket: net.Socket): void {
    if (this.socket === socket) this.socket = undefined;
    socket.destroy();
  }

  private connect(signal: AbortSignal): Promise<net.Socket> {
    if (this.socket && !this.socket.destroyed && this.socket.writable) return Promise.resolve(this.socket);
    this.connecting ??= this.open(signal).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private open(signal: AbortSignal): Promise<net.Socket> {
    const { host, port, transport, caCert, clientCertificate, timeoutMs } = this.target;
    return new Promise<net.Socket>((resolve, reject) => {
      const socket =
        transport === 'tls'
          ? tls.connect({
              host,
              port,
              servername: net.isIP(host) === 0 ? host : undefined,
              ...(caCert ? { ca: caCert } : {}),
              ...(clientCertificate ? { cert: clientCertificate.cert, key: clientCertificate.key } : {}),
            })
          : net.connect({ host, port });
      const readyEvent = transport === 'tls' ? 'secureConnect' : 'connect';
      const timer = setTimeout(() => socket.destroy(new Error(`not connected within ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => socket.destroy(new Error('cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      socket.once(readyEvent, () => {
        settle();
        socket.setKeepAlive(true, 30_000);
        // Collectors do not answer; anything they send is discarded. A peer that closes ends this connection.
        socket.on('data', () => undefined);
        socket.on('error', () => this.drop(socket));
        socket.on('end', () => this.drop(socket));
        socket.on('close', () => this.drop(socket));
        this.socket = socket;
        resolve(socket);
      });
      socket.once('error', (error) => {
        settle();
        socket.destroy();
        reject(new DeliveryError(`${this.where}: ${describeCause(error)}`, true));
      });
    });
  }
}
