import type { Socket } from 'node:net';
import type { DnsEvent } from '@vigil/contracts';
import { DNSTAP_BATCH_EVENTS, DNSTAP_FLUSH_INTERVAL_MS, DnsEventBatcher } from './dns-event-batcher';
import { DnstapEventMapper } from './dnstap-events';
import { DnstapDecodeError, decodeDnstap } from './dnstap-message';
import { dnstapMetrics } from './dnstap-metrics';
import { FrameStreamSession } from './frame-stream-session';
import { FrameStreamDecoder, FrameStreamError } from './frame-streams';

/** READY/START must arrive within this time of connecting. */
export const HANDSHAKE_TIMEOUT_MS = 30_000;
/** After FINISH, the sender has this long to close its side. */
const FINISH_LINGER_MS = 5000;

export interface PublishOutcome {
  accepted: number;
  rejected: Record<string, number>;
}

export interface DnstapConnectionOptions {
  workspaceId: string;
  /** For logs: `tcp 10.0.0.53:41234` or `unix /run/vigil/dnstap.sock`. */
  remote: string;
  maxFrameBytes: number;
  publish(workspaceId: string, events: DnsEvent[]): Promise<PublishOutcome>;
  logger: { log(message: string): void; warn(message: string): void };
  /** Batching (tests shorten it). */
  batchEvents?: number;
  flushIntervalMs?: number;
}

/**
 * One dnstap sender: Frame Streams framing and handshake, dnstap decoding, mapping to dnsEvents, batched
 * publishing through the gateway's intake. A stream that is not Frame Streams or not dnstap closes this
 * connection only, with its reason logged and counted; whatever it had sent before is still published.
 */
export class DnstapConnection {
  readonly done: Promise<void>;
  private readonly decoder: FrameStreamDecoder;
  private readonly session = new FrameStreamSession();
  private readonly mapper = new DnstapEventMapper();
  private readonly batcher: DnsEventBatcher;
  private readonly handshakeTimer: NodeJS.Timeout;
  private ending?: string;
  private readonly stats = { frames: 0, events: 0, accepted: 0, rejected: {} as Record<string, number>, skipped: {} as Record<string, number>, dropped: 0 };

  constructor(
    private readonly socket: Socket,
    private readonly options: DnstapConnectionOptions,
  ) {
    this.decoder = new FrameStreamDecoder(options.maxFrameBytes);
    this.batcher = new DnsEventBatcher({
      maxEvents: options.batchEvents ?? DNSTAP_BATCH_EVENTS,
      intervalMs: options.flushIntervalMs ?? DNSTAP_FLUSH_INTERVAL_MS,
      publish: async (events) => {
        const outcome = await options.publish(options.workspaceId, events);
        this.stats.accepted += outcome.accepted;
        for (const [reason, count] of Object.entries(outcome.rejected)) add(this.stats.rejected, reason, count);
      },
      onRetry: (count, error) => options.logger.warn(`dnstap ${options.remote}: ${count} event(s) not yet published (${error.message}); retrying, reading paused`),
      onDropped: (count, error) => {
        this.stats.dropped += count;
        dnstapMetrics.dropped(count);
        options.logger.warn(`dnstap ${options.remote}: ${count} event(s) dropped, the bus did not take them: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
    this.handshakeTimer = setTimeout(() => {
      if (!this.session.started && !this.session.finished) this.fail('handshake_timeout', `no READY/START within ${HANDSHAKE_TIMEOUT_MS / 1000} s`);
    }, HANDSHAKE_TIMEOUT_MS);
    this.handshakeTimer.unref();
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined);
    this.done = new Promise<void>((resolve) => socket.once('close', () => void this.closed().then(resolve)));
  }

  /** Server shutdown: stop reading; what was received is still published before `done` resolves. */
  close(): Promise<void> {
    this.ending ??= 'server shutting down';
    this.socket.destroy();
    return this.done;
  }

  private receive(chunk: Buffer): void {
    if (this.ending !== undefined) return;
    try {
      for (const frame of this.decoder.push(chunk)) {
        for (const step of this.session.step(frame)) {
          if (step.kind === 'reply') this.socket.write(step.bytes);
          else if (step.kind === 'payload') this.payload(step.payload);
          else if (step.kind === 'oversized') this.oversized(step.length);
          else {
            this.stop(step.finish);
            return;
          }
        }
      }
    } catch (error) {
      if (error instanceof FrameStreamError) return this.fail(error.reason, error.message);
      if (error instanceof DnstapDecodeError) return this.fail('invalid_protobuf', error.message);
      throw error;
    }
    if (this.batcher.full) {
      this.socket.pause();
      void this.batcher.flush().then(() => {
        if (this.ending === undefined) this.socket.resume();
      });
    }
  }

  private payload(payload: Buffer): void {
    this.stats.frames++;
    dnstapMetrics.frame();
    const message = decodeDnstap(payload);
    const mapped = message === undefined ? ({ kind: 'skipped', reason: 'dnstap_type' } as const) : this.mapper.map(message);
    if (mapped.kind === 'events') {
      dnstapMetrics.message('mapped');
      this.stats.events += mapped.events.length;
      this.batcher.add(mapped.events);
    } else {
      dnstapMetrics.message(mapped.kind, mapped.reason);
      add(mapped.kind === 'skipped' ? this.stats.skipped : this.stats.rejected, mapped.reason, 1);
    }
  }

  private oversized(length: number): void {
    this.stats.frames++;
    dnstapMetrics.frame();
    dnstapMetrics.message('rejected', 'frame_too_large');
    add(this.stats.rejected, 'frame_too_large', 1);
    this.options.logger.warn(`dnstap ${this.options.remote}: skipped a data frame of ${length} bytes (over ${this.options.maxFrameBytes})`);
  }

  /** STOP: publish what is pending, then FINISH (bidirectional) and close. */
  private stop(finish: Buffer | undefined): void {
    this.ending = 'stopped by the sender';
    clearTimeout(this.handshakeTimer);
    this.socket.pause();
    void this.batcher.flush().then(() => {
      if (finish) this.socket.end(finish);
      else this.socket.end();
      // Read on (and drop) until the sender closes its side too; one that never does is cut off.
      this.socket.resume();
      setTimeout(() => this.socket.destroy(), FINISH_LINGER_MS).unref();
    });
  }

  private fail(reason: string, message: string): void {
    if (this.ending !== undefined) return;
    this.ending = `closed: ${message} (${reason})`;
    dnstapMetrics.closed(reason);
    this.options.logger.warn(`dnstap ${this.options.remote}: stream error, connection closed: ${message} (${reason})`);
    this.socket.destroy();
  }

  private async closed(): Promise<void> {
    clearTimeout(this.handshakeTimer);
    await this.batcher.close();
    const s = this.stats;
    const line =
      `dnstap ${this.options.remote} (workspace ${this.options.workspaceId}) ended, ${this.ending ?? 'closed by the sender'}: ` +
      `${s.frames} frame(s), ${s.events} event(s), accepted ${s.accepted}, rejected ${counts(s.rejected)}, skipped ${counts(s.skipped)}` +
      (s.dropped > 0 ? `, ${s.dropped} dropped` : '');
    if (Object.keys(s.rejected).length > 0 || s.dropped > 0) this.options.logger.warn(line);
    else this.options.logger.log(line);
  }
}

function add(map: Record<string, number>, key: string, count: number): void {
  map[key] = (map[key] ?? 0) + count;
}

function counts(map: Record<string, number>): string {
  return (
    Object.entries(map)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ') || 'none'
  );
}
