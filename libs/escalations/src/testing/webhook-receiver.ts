/* Test fixtures of this lib (not exported from the lib). */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TlsMaterial } from './tls-material';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** What the receiver did with it. */
  answer: WebhookAnswer;
  /** Epoch ms when the request was complete. */
  at: number;
}

/** How the receiver answers one request: a status (with optional Retry-After), or a dropped connection. */
export type WebhookAnswer = { status: number; retryAfter?: string } | 'reset';

/**
 * A real HTTPS (or HTTP) server that records every request and answers from a script: the scripted answers
 * first, then `fallback` (200 unless changed).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  fallback: WebhookAnswer = { status: 200 };
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly script: WebhookAnswer[],
  ) {}

  static async start(options: { tls?: TlsMaterial; script?: WebhookAnswer[]; path?: string } = {}): Promise<WebhookReceiver> {
    const script = [...(options.script ?? [])];
    let receiver!: WebhookReceiver;
    const handler: http.RequestListener = (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = script.length ? script.shift()! : receiver.fallback;
        receiver.requests.push({ headers: request.headers, body: Buffer.concat(chunks), answer, at: Date.now() });
        if (answer === 'reset') {
          request.socket.destroy();
          return;
        }
        if (answer.retryAfter !== undefined) response.setHeader('retry-after', answer.retryAfter);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: answer.status }));
      });
    };
    const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    receiver = new WebhookReceiver(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${options.path ?? '/hooks/vigil'}`, script);
    server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    return receiver;
  }

  /** Requests the receiver accepted (2xx). */
  get accepted(): ReceivedRequest[] {
    return this.requests.filter((r) => r.answer !== 'reset' && r.answer.status >= 200 && r.answer.status < 300);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
