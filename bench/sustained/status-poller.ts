/** Polls GET /v1/account/status while the fleet saturates ingest: how responsive the HTTP side stays. */
import { api, type VigilProcess } from '@vigil/testing';

export class StatusPoller {
  readonly latenciesMs: number[] = [];
  private running = true;
  private loop?: Promise<void>;

  constructor(private readonly target: Pick<VigilProcess, 'baseUrl' | 'key'>) {}

  start(intervalMs: number): void {
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const res = await api(this.target, 'GET', '/v1/account/status');
        if (res.status === 200) this.latenciesMs.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
