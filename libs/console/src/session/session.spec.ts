import { clearedSessionCookie, readCookie, sessionCookie, SESSION_COOKIE } from './cookies';
import { MAX_SESSIONS, SessionStore } from './session-store';
import { SignInLimiter } from './sign-in-limiter';

describe('SessionStore', () => {
  it('creates sessions with unguessable ids and CSRF tokens, and finds them until they expire', () => {
    let now = 1_000_000;
    const store = new SessionStore(60_000, () => now);
    const a = store.create('operator');
    const b = store.create('analyst', { apiKey: 'vgl_x', workspaceId: 'ws' });
    expect(a.id).not.toEqual(b.id);
    expect(a.csrfToken).not.toEqual(a.id);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.get(a.id)).toBe(a);
    expect(store.get(b.id)?.workspaceId).toBe('ws');
    expect(store.get('nope')).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
    now += 59_999;
    expect(store.get(a.id)).toBe(a);
    now += 1;
    expect(store.get(a.id)).toBeUndefined();
  });

  it('ends a session at sign-out', () => {
    const store = new SessionStore(60_000);
    const session = store.create('operator');
    store.end(session.id);
    expect(store.get(session.id)).toBeUndefined();
  });

  it('lets the oldest sessions go past the cap', () => {
    const store = new SessionStore(60_000);
    const first = store.create('operator');
    for (let i = 0; i < MAX_SESSIONS; i++) store.create('operator');
    expect(store.size).toBe(MAX_SESSIONS);
    expect(store.get(first.id)).toBeUndefined();
  });
});

describe('SignInLimiter', () => {
  it('allows `limit` failures per client in the window, then asks it to wait until the oldest leaves', () => {
    let now = 0;
    const limiter = new SignInLimiter(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('1.2.3.4')).toBe(0);
      limiter.recordFailure('1.2.3.4');
      now += 1000;
    }
    expect(limiter.retryAfterSeconds('1.2.3.4')).toBe(57);
    expect(limiter.retryAfterSeconds('5.6.7.8')).toBe(0);
    now = 60_001;
    expect(limiter.retryAfterSeconds('1.2.3.4')).toBe(0);
  });
});

describe('session cookie', () => {
  it('is HTTP-only, SameSite=Strict, scoped to /console, and Secure under TLS', () => {
    expect(sessionCookie('abc', 600, false)).toBe(`${SESSION_COOKIE}=abc; Path=/console; HttpOnly; SameSite=Strict; Max-Age=600`);
    expect(sessionCookie('abc', 600, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toContain('Max-Age=0');
  });

  it('is read from a Cookie header among others', () => {
    expect(readCookie(`a=1; ${SESSION_COOKIE}=xyz; b=2`, SESSION_COOKIE)).toBe('xyz');
    expect(readCookie('a=1', SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(undefined, SESSION_COOKIE)).toBeUndefined();
  });
});
