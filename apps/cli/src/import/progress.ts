import { SingleBar } from 'cli-progress';

/**
 * Progress on stderr: a bar with bytes, events/s and ETA when stderr is a terminal; otherwise a plain line
 * every few seconds (logs, CI). With an unknown total (--follow) only bytes and the rate are shown.
 */
export class Progress {
  private bytesDone = 0;
  private eventsDone = 0;
  private readonly started = Date.now();
  private bar?: SingleBar;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly totalBytes: number | undefined,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly plainEveryMs = 5000,
    private readonly enabled = true,
  ) {}

  start(): void {
    if (!this.enabled) return;
    if (this.stream.isTTY && this.totalBytes !== undefined) {
      this.bar = new SingleBar(
        { format: 'import [{bar}] {percentage}% | {done}/{total} MB | {rate} events/s | ETA {eta_formatted}', stream: this.stream, hideCursor: true, etaBuffer: 50 },
      );
      this.bar.start(this.totalBytes, 0, this.payload());
    } else {
      this.timer = setInterval(() => this.stream.write(this.line() + '\n'), this.plainEveryMs);
      this.timer.unref();
    }
  }

  bytes(count: number): void {
    this.bytesDone += count;
    this.bar?.update(Math.min(this.bytesDone, this.totalBytes ?? this.bytesDone), this.payload());
  }

  events(count: number): void {
    this.eventsDone += count;
  }

  stop(): void {
    if (this.bar) {
      this.bar.update(this.totalBytes ?? this.bytesDone, this.payload());
      this.bar.stop();
    }
    if (this.timer) clearInterval(this.timer);
    if (this.enabled && !this.bar) this.stream.write(this.line() + '\n');
  }

  private payload(): Record<string, string> {
    return { done: mb(this.bytesDone), total: mb(this.totalBytes ?? 0), rate: Math.round(this.rate()).toLocaleString('en') };
  }

  private rate(): number {
    return this.eventsDone / Math.max(0.001, (Date.now() - this.started) / 1000);
  }

  private line(): string {
    const seconds = (Date.now() - this.started) / 1000;
    const parts = [`import: ${mb(this.bytesDone)}${this.totalBytes !== undefined ? `/${mb(this.totalBytes)}` : ''} MB`];
    if (this.totalBytes) parts.push(`${Math.floor((100 * this.bytesDone) / this.totalBytes)}%`);
    parts.push(`${this.eventsDone.toLocaleString('en')} events`, `${Math.round(this.rate()).toLocaleString('en')} events/s`);
    if (this.totalBytes && this.bytesDone > 0 && this.bytesDone < this.totalBytes) parts.push(`ETA ${Math.round(((this.totalBytes - this.bytesDone) * seconds) / this.bytesDone)} s`);
    return parts.join(', ');
  }
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
