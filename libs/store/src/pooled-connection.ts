import type { createClient } from '@clickhouse/client';

/** The connection contract of @clickhouse/client (which does not export its name), as chdb implements it. */
export type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>;
type Params<M extends keyof ClientConnection> = Parameters<ClientConnection[M]>[0];
type Result<M extends keyof ClientConnection> = ReturnType<ClientConnection[M]>;

/**
 * One client connection over several engine connections. An embedded chdb connection runs its queries one at a
 * time, so a single one makes every page request queue behind the others (and behind inserts); each call here
 * goes to the member with the fewest calls in flight, so independent queries run side by side on the engine.
 * Calls that must follow one another are awaited by their callers, as with any ClickHouse client.
 */
export class PooledConnection<C extends ClientConnection = ClientConnection> implements ClientConnection {
  private readonly inFlight: number[];

  constructor(private readonly members: readonly C[]) {
    if (members.length === 0) throw new TypeError('a connection pool needs at least one connection');
    this.inFlight = members.map(() => 0);
  }

  ping(params: Params<'ping'>): Result<'ping'> {
    return this.run((c) => c.ping(params));
  }

  query(params: Params<'query'>): Result<'query'> {
    return this.run((c) => c.query(params));
  }

  insert(params: Params<'insert'>): Result<'insert'> {
    return this.run((c) => c.insert(params));
  }

  command(params: Params<'command'>): Result<'command'> {
    return this.run((c) => c.command(params));
  }

  exec(params: Params<'exec'>): Result<'exec'> {
    return this.run((c) => c.exec(params));
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((c) => c.close()));
  }

  /** Runs `call` on the member with the fewest calls in flight (for what a member offers beyond the contract). */
  async run<T>(call: (connection: C) => Promise<T>): Promise<T> {
    let chosen = 0;
    for (let i = 1; i < this.inFlight.length; i++) if (this.inFlight[i] < this.inFlight[chosen]) chosen = i;
    this.inFlight[chosen]++;
    try {
      return await call(this.members[chosen]);
    } finally {
      this.inFlight[chosen]--;
    }
  }
}
