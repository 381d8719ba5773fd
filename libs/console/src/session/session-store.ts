import { randomBytes } from 'node:crypto';

export type ConsoleRole = 'operator' | 'analyst';

export interface ConsoleSession {
  id: string;
  role: ConsoleRole;
  /** Synchronizer token: every change must send it in X-CSRF-Token. */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** Analysts: the key they signed in with (memory only), looked up again on every call so a revoked key ends the session. */
  apiKey?: string;
  workspaceId?: string;
}

export const MAX_SESSIONS = 10_000;

/**
 * Console sessions, kept on the server (the cookie carries only a random id). A session ends at its expiry or at
 * sign-out; the oldest sessions give way when more than MAX_SESSIONS are open.
 */
export class SessionStore {
  private readonly sessions = new Map<string, ConsoleSession>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create(role: ConsoleRole, extra: Pick<ConsoleSession, 'apiKey' | 'workspaceId'> = {}): ConsoleSession {
    this.sweep();
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const now = this.now();
    const session: ConsoleSession = { id: token(), role, csrfToken: token(), createdAt: now, expiresAt: now + this.ttlMs, ...extra };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, or undefined (unknown, ended or expired). */
  get(id: string | undefined): ConsoleSession | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  end(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
  }
}

function token(): string {
  return randomBytes(32).toString('base64url');
}
