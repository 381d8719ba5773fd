import * as http from 'node:http';
import * as https from 'node:https';
import type { EscalationDestination, WebhookTarget } from '../destinations/destination';
import { parseRetryAfter } from '../delivery/retry-policy';
import type { EscalationItem } from '../payload/escalation-item';
import { DeliveryError, describeCause, type EscalationTransport } from './transport';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from './webhook-signature';

const USER_AGENT = 'Vigil-Escalations/1';
/** Response bodies are read (so the connection can be re-used) but not kept beyond this. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * Statuses that reject this payload itself: another attempt would fail the same way, so the delivery is
 * dead-lettered at once. Everything else (401/403/404 of a receiver being reconfigured, 429, 5xx, network and TLS
 * errors) is retried: configuration problems get fixed, and retrying keeps the backlog on the bus meanwhile.
 */
const PAYLOAD_REJECTED = new Set([400, 413, 415, 422]);

/**
 * POSTs each item as JSON, signed (see webhook-signature.ts), with `Idempotency-Key` so a receiver can drop the
 * duplicates that at-least-once delivery produces. 2xx is success; redirects are not followed.
 */
export class WebhookTransport implements EscalationTransport {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly target: WebhookTarget;

  constructor(
    private readonly destination: EscalationDestination,
    private readonly clock: () => number = Date.now,
  ) {
    if (destination.target.kind !== 'webhook') throw new TypeError('WebhookTransport needs a webhook destination');
    this.target = destination.target;
    this.url = new URL(this.target.url);
    this.agent =
      this.url.protocol === 'https:'
        ? new https.Agent({ keepAlive: true, maxSockets: 4, ...(this.target.caCert ? { ca: this.target.caCert } : {}) })
        : new http.Agent({ keepAlive: true, maxSockets: 4 });
  }

  /** The URL without its query (which may hold a token), for messages. */
  private get where(): string {
    return `${this.url.origin}${this.url.pathname}`;
  }

  send(item: EscalationItem, signal: AbortSignal): Promise<void> {
    const body = Buffer.from(item.json, 'utf8');
    const timestamp = String(Math.floor(this.clock() / 1000));
    const headers: http.OutgoingHttpHeaders = {
      ...this.target.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'user-agent': USER_AGENT,
      'idempotency-key': item.idempotencyKey,
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: webhookSignature(this.target.secret, timestamp, body),
      'x-vigil-event': item.source,
      'x-vigil-workspace': item.workspaceId,
      'x-vigil-destination': this.destination.id,
    };
    const transport = this.url.protocol === 'https:' ? https : http;
    return new Promise<void>((resolve, reject) => {
      const fail = (error: DeliveryError) => {
        clearTimeout(timer);
        reject(error);
      };
      const request = transport.request(this.url, { method: 'POST', headers, agent: this.agent, signal }, (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('error', () => undefined);
        response.on('close', () => {
          clearTimeout(timer);
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve();
          const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after'], this.clock()) : undefined;
          reject(new DeliveryError(`POST ${this.where} answered ${status}`, !PAYLOAD_REJECTED.has(status), retryAfterMs));
        });
        response.resume();
      });
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${this.target.timeoutMs} ms`)), this.target.timeoutMs);
      request.on('error', (error) => {
        if (signal.aborted) return fail(new DeliveryError(`POST ${this.where}: cancelled`, true));
        fail(new DeliveryError(`POST ${this.where}: ${describeCause(error)}`, true));
      });
      request.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

