import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { writeZip } from '@vigil/rules';
import { api, eventually, startVigil, toNdjson, tunnelDnsEvents, type VigilProcess } from '@vigil/testing';

/**
 * The web console in headless Chromium (Debian's `chromium`, driven by playwright-core): an operator creates a key,
 * telemetry (with script payloads in every attacker-controlled field) is sent with it, an analyst explores what
 * Vigil found, uploads rules, and the operator revokes the key. axe-core checks every page; nothing may execute.
 */
const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';
const OUTPUT = path.resolve(__dirname, '..', 'output', 'console');
const PASSWORD = 'console-e2e-password';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const TUNNEL_HOST = '10.66.0.7';
const XSS_HOST = '10.66.0.9';
/** Script payloads: each would set window.__xss or open a dialog if it were ever run. */
const PAYLOADS = {
  script: '<script>window.__xss="script";alert(1)</script>',
  img: '<img src=x onerror="window.__xss=\'img\';alert(2)">',
  jsUrl: 'javascript:window.__xss="url";alert(3)',
  svg: '<svg onload="window.__xss=\'svg\'">',
};

const GOOD_RULE = `title: Script in a user agent
id: 3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b
status: experimental
description: A user agent carrying HTML event handlers
logsource:
  category: proxy
detection:
  selection:
    c-useragent|contains: onerror
  condition: selection
level: high
`;
const BAD_RULE = `title: Broken rule
id: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
logsource:
  category: proxy
detection:
  selection:
    c-useragent|contains: x
  condition: selection and missing_selection
level: high
`;

let vigil: VigilProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];
const cspReports: string[] = [];

async function newPage(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme });
  const created = await context.newPage();
  created.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  created.on('pageerror', (error) => pageErrors.push(error.message));
  created.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
  });
  return created;
}

/** axe-core, evaluated through the DevTools protocol (the console's CSP forbids injected script tags). */
async function seriousViolations(target: Page): Promise<string[]> {
  await target.evaluate(AXE_SOURCE);
  const violations = await target.evaluate(async () => {
    type AxeResult = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const page = globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<AxeResult> }; document: unknown };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

async function checkPage(target: Page, name: string): Promise<void> {
  expect(await seriousViolations(target)).toEqual([]);
  await target.screenshot({ path: path.join(OUTPUT, `${name}.png`), fullPage: true });
}

async function signIn(target: Page, role: 'operator' | 'analyst', secret: string): Promise<void> {
  await target.goto(`${vigil.baseUrl}/console`);
  await target.getByLabel(role === 'operator' ? 'an operator' : 'an analyst (workspace API key)').check();
  await target.getByLabel(role === 'operator' ? 'Admin password or admin token' : 'API key', { exact: true }).fill(secret);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function signOut(target: Page): Promise<void> {
  await target.getByRole('button', { name: 'Sign out' }).click();
  await target.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
}

function xssTelemetry() {
  const ts = new Date(Date.now() - 5_000).toISOString();
  const http = [PAYLOADS.script, PAYLOADS.img, PAYLOADS.svg].map((userAgent, i) => ({
    ts,
    srcIP: XSS_HOST,
    srcHost: PAYLOADS.img,
    url: i === 0 ? `http://evil.example/${encodeURIComponent(PAYLOADS.script)}` : `http://evil.example/p?q=${PAYLOADS.jsUrl}`,
    method: 'GET',
    userAgent: `${userAgent} onerror`,
    referrer: PAYLOADS.jsUrl,
  }));
  const tls = { ts, srcIP: XSS_HOST, destIP: '203.0.113.9', destPort: 443, subject: `CN=${PAYLOADS.script}`, issuer: `CN=${PAYLOADS.img}` };
  return { http, tls };
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  vigil = await startVigil({ env: { VIGIL_ADMIN_PASSWORD: PASSWORD, VIGIL_VISIBILITY_DELAY_MS: '200' } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  page = await newPage();
});

afterAll(async () => {
  await browser?.close();
  await vigil?.stop();
});

describe('the web console', () => {
  let key = '';

  it('serves the page with a strict Content-Security-Policy and no inline script', async () => {
    const res = await fetch(`${vigil.baseUrl}/console`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(vigil.baseUrl + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${vigil.baseUrl}/console/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    const slash = await fetch(`${vigil.baseUrl}/console/`, { redirect: 'manual' });
    expect([slash.status, slash.headers.get('location')]).toEqual([301, '/console']);
  });

  it('lets the operator create a key, shown once with a copy button', async () => {
    await signIn(page, 'operator', PASSWORD);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Workspace').fill('console-e2e');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-key');
    await shown.waitFor();
    key = (await shown.textContent())!.trim();
    expect(key).toMatch(/^vgl_[A-Za-z0-9]+$/);
    await expect(page.getByRole('button', { name: 'Copy key' }).isVisible()).resolves.toBe(true);
    const row = page.locator(`tr[data-prefix="${key.slice(0, 12)}"]`);
    await expect(row.textContent()).resolves.toContain('active');
    await checkPage(page, 'operator-keys');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('new-key').count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'Account status' }).click();
    await page.getByRole('heading', { name: 'console-e2e' }).waitFor();
    await checkPage(page, 'operator-status');
  });

  it('accepts telemetry with the new key, script payloads included', async () => {
    const burst = tunnelDnsEvents(60, { domain: 'console-tunnel.net', srcIP: TUNNEL_HOST, startTs: Date.now() - 30_000, intervalMs: 400, srcHost: PAYLOADS.svg });
    const dns = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson(burst), key });
    expect(dns.status).toBe(200);
    expect(dns.body.accepted).toBe(60);
    const { tls } = xssTelemetry();
    expect((await api(vigil, 'POST', '/v1/events/tls', { body: toNdjson([tls]), key })).status).toBe(200);
  });

  it('lets the analyst upload rules and see the per-file errors', async () => {
    await signOut(page);
    await signIn(page, 'analyst', key);
    await page.getByRole('link', { name: 'Sigma rules' }).click();
    await page.getByRole('heading', { name: 'Sigma rules' }).waitFor();
    const zip = writeZip([
      { name: 'good/script-user-agent.yml', data: GOOD_RULE },
      { name: 'bad/broken.yml', data: BAD_RULE },
    ]);
    await page.getByLabel('Rule archive (.zip)').setInputFiles({ name: 'rules.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByRole('button', { name: 'Upload' }).click();
    const errors = page.locator('.upload-errors');
    await errors.waitFor();
    await expect(errors.textContent()).resolves.toContain('bad/broken.yml');
    await page.getByRole('cell', { name: 'Script in a user agent', exact: true }).waitFor();
    await checkPage(page, 'analyst-rules');
  });

  it('shows the tunnel finding in the explorer, filters by host and opens its detail', async () => {
    // Sigma rules reach the scoring engine within seconds: send the HTTP payloads until the rule has matched them.
    await eventually(async () => {
      await api(vigil, 'POST', '/v1/events/http', { body: toNdjson(xssTelemetry().http), key });
      const res = await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=1h', { key });
      const records = (res.body.records ?? []) as { device?: { ip?: string } }[];
      return records.some((r) => r.device?.ip === TUNNEL_HOST) && records.some((r) => r.device?.ip === XSS_HOST) ? true : undefined;
    }, 60_000, 1000);

    await page.getByRole('link', { name: 'Findings' }).click();
    await page.getByRole('heading', { name: 'Findings' }).waitFor();
    await page.locator('table.findings tbody tr').first().waitFor();
    await checkPage(page, 'analyst-findings');

    await page.getByLabel('Host').fill(TUNNEL_HOST);
    const rows = page.locator('table.findings tbody tr');
    await expect(rows.count()).resolves.toBeGreaterThan(0);
    for (const text of await rows.allTextContents()) expect(text).toContain(TUNNEL_HOST);

    await rows.first().getByRole('button').click();
    await page.getByRole('heading', { name: 'Explanation' }).waitFor();
    await page.getByRole('heading', { name: 'MITRE ATT&CK' }).waitFor();
    const raw = await page.getByLabel('Raw OCSF JSON of the finding').textContent();
    expect(JSON.parse(raw!).device.ip).toBe(TUNNEL_HOST);
    await checkPage(page, 'analyst-finding-detail');
    await page.getByRole('button', { name: '← Back to findings' }).click();

    // The finding carrying script payloads: shown as text, never run.
    await page.getByLabel('Host').fill(XSS_HOST);
    await page.locator('table.findings tbody tr').first().getByRole('button').click();
    const xssRaw = (await page.getByLabel('Raw OCSF JSON of the finding').textContent())!;
    expect(xssRaw).toContain('onerror');
    expect(await page.locator('main img, main script, main svg[onload]').count()).toBe(0);
    await page.getByRole('button', { name: '← Back to findings' }).click();

    // The rule has done its job: delete it (two steps) and see it gone from the list and from the API.
    await page.getByRole('link', { name: 'Sigma rules' }).click();
    await page.getByRole('button', { name: 'Delete rule Script in a user agent' }).click();
    await page.getByRole('button', { name: 'Confirm delete of rule Script in a user agent' }).click();
    await page.getByText('This workspace has no customer rules.').waitFor();
    expect((await api(vigil, 'GET', '/v1/detections', { key })).body.rules).toEqual([]);
  });

  it('renders the overview, explain and dictionary pages, also in dark mode', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: /Overview/ }).waitFor();
    await page.locator('figure.chart svg').first().waitFor();
    // The ingest rate of the analyst's workspace: the telemetry this test sent, counted by the archive.
    await page.getByRole('img', { name: /^Events received per hour: .*\b[1-9]\d*$/ }).waitFor();
    await checkPage(page, 'analyst-overview');

    await page.getByRole('link', { name: 'Explain' }).click();
    await page.getByLabel('Domain name', { exact: true }).fill('x7kq9w2pz3vb8mn4.example.com');
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByLabel('Explanation', { exact: true }).waitFor();
    await expect(page.getByLabel('Explanation', { exact: true }).textContent()).resolves.toContain('example.com');
    await checkPage(page, 'analyst-explain');

    await page.getByRole('link', { name: 'Findings' }).click();
    await page.getByRole('link', { name: TUNNEL_HOST }).first().click();
    await page.getByRole('heading', { name: `Host ${TUNNEL_HOST}` }).waitFor();
    await page.getByText('DNS tunneling').first().waitFor();
    await page.locator('svg[aria-label^="Timeline"] rect').first().waitFor({ state: 'attached' });
    await checkPage(page, 'analyst-host');

    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: /Alerts/ }).waitFor();
    await page.locator('table.alerts tbody tr').first().waitFor();
    await checkPage(page, 'analyst-alerts');

    await page.getByRole('link', { name: 'Dictionaries' }).click();
    await page.getByRole('heading', { name: 'Threats' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Keyboard only, in dark mode: Tab to the key field (the role radios are one stop), type, Enter; then the
    // skip link moves focus to the page's main content.
    const dark = await newPage('dark');
    await dark.goto(`${vigil.baseUrl}/console`);
    await dark.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await dark.keyboard.press('Tab');
    await dark.keyboard.press('Tab');
    expect(await dark.evaluate('document.activeElement.id')).toBe('secret');
    await dark.keyboard.type(key);
    await dark.keyboard.press('Enter');
    await dark.getByRole('button', { name: 'Sign out' }).waitFor();
    await dark.keyboard.press('Tab');
    expect(await dark.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await dark.keyboard.press('Enter');
    expect(await dark.evaluate('document.activeElement.id')).toBe('main');
    await dark.getByRole('link', { name: 'Findings' }).click();
    await dark.locator('table.findings tbody tr').first().waitFor();
    expect(await dark.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(18, 20, 23)');
    await checkPage(dark, 'analyst-findings-dark');
    await dark.close();
  });

  it('ran none of the script payloads', async () => {
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
  });

  it('refuses changes without the CSRF token and API calls without a session', async () => {
    const cookies = await page.context().cookies(vigil.baseUrl + '/console');
    const session = cookies.find((c) => c.name === 'vigil_console')!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Strict');
    const cookie = `vigil_console=${session.value}`;
    const noToken = await fetch(`${vigil.baseUrl}/console/api/explain`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"name":"a.com"}' });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { message: string }).message).toMatch(/CSRF/);
    const csrfToken = ((await (await fetch(`${vigil.baseUrl}/console/api/session`, { headers: { cookie } })).json()) as { csrfToken: string }).csrfToken;
    const explain = (headers: Record<string, string>) =>
      fetch(`${vigil.baseUrl}/console/api/explain`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...headers }, body: '{"name":"a.com"}' });
    expect((await explain({ 'content-type': 'application/json' })).status).toBe(200);
    expect((await explain({ 'content-type': 'text/plain' })).status).toBe(415);
    expect((await explain({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await fetch(`${vigil.baseUrl}/console/api/findings`)).status).toBe(401);
  });

  it('lets the operator revoke the key, after which the API refuses it', async () => {
    await signOut(page);
    await signIn(page, 'operator', PASSWORD);
    const row = page.locator(`tr[data-prefix="${key.slice(0, 12)}"]`);
    const lastUsed = await row.locator('td').nth(4).textContent();
    expect(lastUsed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    const prefix = key.slice(0, 12);
    await row.getByLabel(`Expiry date of key ${prefix}`).fill('2031-01-31');
    await row.getByRole('button', { name: `Set expiry of key ${prefix}` }).click();
    const status = await eventually(async () => {
      const res = await api(vigil, 'GET', '/v1/account/status', { key });
      return String(res.body.expirationDate ?? '').startsWith('2031-01-31') ? res.body : undefined;
    });
    expect(status.expired).toBe(false);
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await eventually(async () => ((await row.textContent())?.includes('revoked') ? true : undefined));
    const refused = await eventually(async () => {
      const res = await api(vigil, 'GET', '/v1/account/status', { key });
      return res.status === 401 || res.status === 403 ? res : undefined;
    });
    expect([401, 403]).toContain(refused.status);
    expect((await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ srcIP: '10.0.0.1', query: 'a.com', qtype: 'A' }]), key })).status).toBe(401);
    await signOut(page);
  });

  it('rate-limits failed sign-in attempts', async () => {
    const attempt = () =>
      fetch(`${vigil.baseUrl}/console/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"role":"operator","password":"wrong"}' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
