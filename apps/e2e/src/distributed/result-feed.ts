import type { HttpResult } from '@vigil/testing';

export type FeedKind = 'findings' | 'alerts';

const PATHS: Record<FeedKind, { path: string; list: string }> = {
  findings: { path: '/v1/findings?schema=ocsf&maxAge=30d', list: 'records' },
  alerts: { path: '/v1/alerts?maxAge=720h', list: 'alerts' },
};

/**
 * A SOC tool's poller: follows GET /v1/findings or /v1/alerts with the `follow` bookmark, page after page, and
 * keeps everything it was served, in order — so a record served twice shows up twice in `items`.
 */
export class ResultFeed<T = any> {
  readonly items: T[] = [];
  private follow: string | undefined;

  constructor(
    private readonly kind: FeedKind,
    private readonly get: (pathAndQuery: string) => Promise<HttpResult<any>>,
  ) {}

  /** Reads every page available now; returns what was new. */
  async poll(): Promise<T[]> {
    const fresh: T[] = [];
    const { path, list } = PATHS[this.kind];
    for (let pages = 0; pages < 1000; pages++) {
      const url = this.follow === undefined ? path : `${path}&follow=${encodeURIComponent(this.follow)}`;
      const page = await this.get(url);
      if (page.status !== 200) throw new Error(`GET ${url}: ${page.status} ${page.text.slice(0, 300)}`);
      const items = page.body[list] as T[];
      fresh.push(...items);
      this.follow = page.body.follow;
      if (!page.body.more) break;
    }
    this.items.push(...fresh);
    return fresh;
  }
}

/** Values that occur more than once. */
export function repeated<T>(values: Iterable<T>): T[] {
  const seen = new Set<T>();
  const twice = new Set<T>();
  for (const value of values) (seen.has(value) ? twice : seen).add(value);
  return [...twice];
}
