import type { DistinctCounter } from '../counters';

/**
 * Exact distinct counting in this process (the embedded stand-in for Redis HyperLogLog). Scopes are
 * dropped oldest-first beyond `maxScopes`, and a scope stops growing at `maxMembersPerScope` (beyond that
 * the count is a lower bound), so memory stays bounded.
 */
export class MemoryDistinctCounter implements DistinctCounter {
  private readonly scopes = new Map<string, Set<string>>();

  constructor(
    private readonly maxScopes = 10_000,
    private readonly maxMembersPerScope = 1_000_000,
  ) {}

  async add(scope: string, members: string[]): Promise<void> {
    let set = this.scopes.get(scope);
    if (!set) {
      set = new Set();
      this.scopes.set(scope, set);
      if (this.scopes.size > this.maxScopes) this.scopes.delete(this.scopes.keys().next().value as string);
    }
    for (const member of members) {
      if (set.size >= this.maxMembersPerScope) break;
      set.add(member);
    }
  }

  async count(scope: string): Promise<number> {
    return this.scopes.get(scope)?.size ?? 0;
  }
}
