interface Queued {
  body: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * One insert at a time, with whatever callers queued meanwhile sent together (up to `maxBytes` per insert, a body
 * never split). ClickHouse prefers few large inserts to many small ones, and the embedded engine serves one
 * query at a time, so a single flight also keeps other services' queries (findings inserts and pages) from
 * queuing behind a pile of concurrent inserts. Each call resolves once its own rows are in, or rejects with the
 * failure of the insert that carried them.
 */
export class CoalescingInserter {
  private queue: Queued[] = [];
  private running = false;

  constructor(
    private readonly insert: (body: Buffer) => Promise<void>,
    private readonly maxBytes: number,
  ) {}

  /** `body`: complete rows in the insert's format (e.g. newline-terminated lines). */
  add(body: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ body, resolve, reject });
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        let bytes = 0;
        let count = 0;
        while (count < this.queue.length && (count === 0 || bytes + this.queue[count].body.length <= this.maxBytes)) {
          bytes += this.queue[count].body.length;
          count++;
        }
        const taken = this.queue.splice(0, count);
        try {
          await this.insert(taken.length === 1 ? taken[0].body : Buffer.concat(taken.map((q) => q.body), bytes));
          for (const q of taken) q.resolve();
        } catch (error) {
          for (const q of taken) q.reject(error as Error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
