interface Queued {
  /** The body, in the pieces the caller had it in: they are joined once, into the insert that carries them. */
  parts: readonly Buffer[];
  bytes: number;
  queuedAt: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface CoalescingOptions {
  /** Largest insert (a body is never split, so one larger body goes alone). */
  maxBytes: number;
  /**
   * How long the oldest queued body may wait for more to join it before an insert that would be smaller than
   * `maxBytes` is sent. 0: send whatever is queued at once.
   */
  lingerMs?: number;
}

/**
 * One insert at a time, with whatever callers queued meanwhile sent together (up to `maxBytes` per insert, a body
 * never split), after lingering up to `lingerMs` for the insert to fill. ClickHouse prefers few large inserts to
 * many small ones: every insert writes a part, and small parts are merged again and again (on the embedded engine,
 * 300 KB inserts cost three times the merge CPU of 4 MB ones). A single flight also keeps other services' queries
 * (findings inserts and pages) from queuing behind a pile of concurrent inserts. Each call resolves once its own
 * rows are in, or rejects with the failure of the insert that carried them.
 */
export class CoalescingInserter {
  private queue: Queued[] = [];
  private queuedBytes = 0;
  private running = false;
  /** Ends the current linger early; set while the inserter lingers. */
  private fill: (() => void) | undefined;
  private readonly maxBytes: number;
  private readonly lingerMs: number;
  /**
   * Where the pieces of an insert up to `maxBytes` are joined, reused from one insert to the next (one runs at a
   * time, and the insert is done with its bytes when it settles). A fresh buffer per insert cost the thread page
   * faults on every copy and added its size to the external memory that brings on full collections.
   */
  private joinBuffer: Buffer | undefined;

  /** `insert` must be done with `body` when its promise settles: the next insert may reuse its memory. */
  constructor(
    private readonly insert: (body: Buffer) => Promise<void>,
    options: CoalescingOptions,
  ) {
    this.maxBytes = options.maxBytes;
    this.lingerMs = options.lingerMs ?? 0;
  }

  /** `body`: complete rows in the insert's format (e.g. newline-terminated lines), whole or in consecutive pieces. */
  add(body: Buffer | readonly Buffer[]): Promise<void> {
    const parts = Buffer.isBuffer(body) ? [body] : body;
    const bytes = parts.reduce((sum, part) => sum + part.length, 0);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ parts, bytes, queuedAt: Date.now(), resolve, reject });
      this.queuedBytes += bytes;
      if (this.queuedBytes >= this.maxBytes) this.fill?.();
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const lingering = this.linger();
        if (lingering) await lingering;
        let bytes = 0;
        let count = 0;
        while (count < this.queue.length && (count === 0 || bytes + this.queue[count].bytes <= this.maxBytes)) {
          bytes += this.queue[count].bytes;
          count++;
        }
        const taken = this.queue.splice(0, count);
        this.queuedBytes -= bytes;
        try {
          await this.insert(this.joined(taken.flatMap((q) => q.parts), bytes));
          for (const q of taken) q.resolve();
        } catch (error) {
          // The failed insert may still be reading the joined bytes (a client that gave up on a request in flight).
          this.joinBuffer = undefined;
          for (const q of taken) q.reject(error as Error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** The pieces as one buffer: the only piece itself, a view of the join buffer, or (over `maxBytes`) a buffer of its own. */
  private joined(parts: readonly Buffer[], bytes: number): Buffer {
    if (parts.length === 1) return parts[0];
    if (bytes > this.maxBytes) return Buffer.concat(parts, bytes);
    const into = (this.joinBuffer ??= Buffer.allocUnsafeSlow(this.maxBytes));
    let at = 0;
    for (const part of parts) {
      into.set(part, at);
      at += part.length;
    }
    return into.subarray(0, bytes);
  }

  /**
   * Settles once the queue holds `maxBytes` or its oldest body has waited `lingerMs`; undefined when that is
   * already so (the insert then takes exactly what is queued now, without yielding to callers queuing more).
   */
  private linger(): Promise<void> | undefined {
    const remaining = this.queue[0].queuedAt + this.lingerMs - Date.now();
    if (remaining <= 0 || this.queuedBytes >= this.maxBytes) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.fill?.(), remaining);
      this.fill = () => {
        clearTimeout(timer);
        this.fill = undefined;
        resolve();
      };
    });
  }
}
