/**
 * Planted malicious hosts: every `intervalMs` a fresh host (outside the fleet's addresses) runs a short DNS
 * tunnel to a fresh domain, and the probe measures the time from the 200 of that upload to its finding being
 * visible over GET /v1/findings, while the fleet keeps the server saturated. Uploads go to `ingest` and
 * findings are read from `findings` (the same process in the all-in-one; a gateway and findings-api when split).
 */
import { api, gzipNdjson, tunnelDnsEvents, type VigilProcess } from '@vigil/testing';

type Target = Pick<VigilProcess, 'baseUrl' | 'key'>;

export interface ProbeTargets {
  ingest: Target;
  findings: Target;
}

export interface ProbeResult {
  host: string;
  atMs: number;
  /** Time from the first POST to its 200: waiting for admission and retries after 429/503 included. */
  uploadMs: number;
  /** Time from the 200 to the visible finding; undefined when none appeared within the timeout. */
  latencyMs?: number;
  /**
   * Time from the 200 to the finding's production, from its `metadata.processed_time` (whole seconds, so each
   * is off by up to a second; a mean over many probes is good to about 0.1 s).
   */
  producedAfterMs?: number;
  /** Duration of each GET /v1/findings this probe made while waiting for its finding. */
  pollsMs: number[];
}

type FindingShape = {
  enrichments?: { data?: { aggregation?: { key?: { detections?: { key: string }[] } } } }[];
  metadata?: { processed_time?: number };
};

export class MaliciousHostProbes {
  readonly results: ProbeResult[] = [];
  private timer?: NodeJS.Timeout;
  private inFlight = Promise.resolve();
  private count = 0;

  constructor(
    private readonly targets: ProbeTargets,
    private readonly started: number,
    private readonly timeoutMs = 60_000,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.inFlight = this.inFlight.then(() => this.probe());
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
  }

  private async probe(): Promise<void> {
    const n = this.count++;
    const host = `10.99.${Math.floor(n / 250)}.${1 + (n % 250)}`;
    const domain = `sustained-probe-${n}-${Date.now().toString(36)}.net`;
    let follow = (await api(this.targets.findings, 'GET', '/v1/findings?schema=ocsf&maxAge=60s')).body.follow as string;
    const events = tunnelDnsEvents(30, { domain, srcIP: host, startTs: Date.now() - 15_000, intervalMs: 500 });
    const posted = performance.now();
    let res = await api(this.targets.ingest, 'POST', '/v1/events/dns', { body: gzipNdjson(events), headers: { 'content-encoding': 'gzip' } });
    // Refused while scoring catches up: retry as a sensor does, after Retry-After. The clock starts at the 200.
    while (res.status === 429 || res.status === 503) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      res = await api(this.targets.ingest, 'POST', '/v1/events/dns', { body: gzipNdjson(events), headers: { 'content-encoding': 'gzip' } });
    }
    const answered = performance.now();
    const answeredAtMs = Date.now();
    const result: ProbeResult = { host, atMs: answeredAtMs - this.started, uploadMs: answered - posted, pollsMs: [] };
    this.results.push(result);
    if (res.status !== 200) return;
    while (performance.now() - answered < this.timeoutMs) {
      const pollStarted = performance.now();
      const page = await api(this.targets.findings, 'GET', `/v1/findings?schema=ocsf&follow=${encodeURIComponent(follow)}`);
      result.pollsMs.push(performance.now() - pollStarted);
      follow = page.body.follow ?? follow;
      const records = (page.body.records ?? []) as FindingShape[];
      const finding = records.find((f) => f.enrichments?.[0]?.data?.aggregation?.key?.detections?.some((d) => d.key === domain));
      if (finding) {
        result.latencyMs = performance.now() - answered;
        const processedS = finding.metadata?.processed_time;
        // The middle of the whole second the finding was produced in.
        if (typeof processedS === 'number') result.producedAfterMs = processedS * 1000 + 500 - answeredAtMs;
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
