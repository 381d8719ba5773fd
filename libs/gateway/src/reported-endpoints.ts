import { packedEndpointAt, type PackedEndpoints } from './endpoints';

export interface ReportedEndpointsOptions {
  /**
   * How long an endpoint counted in a scope is not sent to the counter again. After it, the scope starts afresh,
   * so a counter that lost its data (a Redis flushed or restarted without persistence) is filled again within it.
   */
  refreshMs: number;
  /** Scopes remembered at once (a scope is a workspace's UTC day); the least recently used is forgotten. */
  maxScopes: number;
  /** Hashes remembered per scope; beyond it further endpoints are sent every time. */
  maxPerScope: number;
}

const DEFAULTS: ReportedEndpointsOptions = { refreshMs: 10 * 60_000, maxScopes: 1_000, maxPerScope: 250_000 };

interface Scope {
  since: number;
  hashes: Set<number>;
}

/** Endpoints of one body not yet counted in a scope, with their hashes (to mark them counted once they are). */
export interface UnreportedEndpoints {
  ids: string[];
  hashes: number[];
}

/**
 * The endpoints this gateway has already added to the distinct counter, per scope: a fleet sends the same hosts
 * body after body, and adding thousands of members per body cost the HTTP thread a few milliseconds each (and a
 * Redis PFADD of as many members in the split deployment). An endpoint is marked only after the counter took it,
 * so a failed add or a rejected body leaves it to be sent again.
 */
export class ReportedEndpoints {
  private readonly scopes = new Map<string, Scope>();
  private readonly options: ReportedEndpointsOptions;

  constructor(options: Partial<ReportedEndpointsOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  unreported(scopeKey: string, packed: PackedEndpoints, nowMs: number): UnreportedEndpoints {
    const scope = this.scopeOf(scopeKey, nowMs);
    const fresh: UnreportedEndpoints = { ids: [], hashes: [] };
    for (let i = 0; i < packed.hashes.length; i++) {
      const hash = packed.hashes[i];
      if (scope.hashes.has(hash)) continue;
      fresh.ids.push(packedEndpointAt(packed, i));
      fresh.hashes.push(hash);
    }
    return fresh;
  }

  markReported(scopeKey: string, hashes: readonly number[], nowMs: number): void {
    const scope = this.scopeOf(scopeKey, nowMs);
    for (const hash of hashes) {
      if (scope.hashes.size >= this.options.maxPerScope) return;
      scope.hashes.add(hash);
    }
  }

  private scopeOf(key: string, nowMs: number): Scope {
    let scope = this.scopes.get(key);
    if (scope !== undefined && nowMs - scope.since >= this.options.refreshMs) scope = undefined;
    if (scope === undefined) {
      scope = { since: nowMs, hashes: new Set() };
    } else {
      this.scopes.delete(key); // re-inserted below: the map's order is least recently used first
    }
    this.scopes.set(key, scope);
    if (this.scopes.size > this.options.maxScopes) this.scopes.delete(this.scopes.keys().next().value as string);
    return scope;
  }
}
