import * as net from 'node:net';

/** One HTTP/1.1 response read off a socket (test helper). */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a server sent on one connection into its responses (Content-Length bodies; 1xx have none). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) return responses;
    const [statusLine, ...headerLines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < headEnd + 4 + length) return responses;
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
}

/**
 * A raw TCP connection to a test server: write exact bytes (any method, slow bodies, pipelined requests) and read
 * the responses as they come. Used where an HTTP client library would hide what is being tested.
 */
export class RawConnection {
  received = '';
  closed = false;
  private readonly openedAt = Date.now();
  closedAfterMs = -1;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.closedAfterMs = Date.now() - this.openedAt;
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  responses(): RawResponse[] {
    return parseResponses(this.received);
  }

  /** Waits until `condition` holds (checked every 10 ms) or fails after `timeoutMs`. */
  async until(condition: (connection: RawConnection) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this)) {
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; received: ${JSON.stringify(this.received.slice(0, 300))}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  untilResponses(count: number, timeoutMs?: number): Promise<void> {
    return this.until((c) => c.responses().length >= count, timeoutMs);
  }

  untilClosed(timeoutMs?: number): Promise<void> {
    return this.until((c) => c.closed, timeoutMs);
  }

  close(): void {
    this.socket.destroy();
  }
}
