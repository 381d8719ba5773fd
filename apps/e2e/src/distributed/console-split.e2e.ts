/**
 * The web console in the split deployment: it is served by findings-api, whose process has neither the account
 * nor the rules service, so its JSON API calls theirs over HTTP (VIGIL_ACCOUNT_URL with the operator token,
 * VIGIL_RULES_URL with the analyst's own key, and the rules service's operator route to delete one rule). The
 * three services share one operator token file (VIGIL_ADMIN_TOKEN_FILE). Driven through /console/api with fetch,
 * as the browser app does.
 */
import { writeZip } from '@vigil/rules';
import { DistributedCluster, eventually } from '@vigil/testing';
import { markerRuleZip, ZIP_HEADERS } from './marker-rule';

const RULE_ID = '5d0c7f4e-9a1b-4c2d-8e3f-7a6b5c4d3e21';

let cluster: DistributedCluster;
let consoleUrl: string;

beforeAll(async () => {
  cluster = await DistributedCluster.start({ gateways: 1, scoringEngines: 1 });
  consoleUrl = `${cluster.replicas('findings-api')[0].baseUrl}/console/api`;
});

afterAll(async () => {
  await cluster?.stop();
});

interface ConsoleClient {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
}

/** Signs in to the console of findings-api and keeps the session cookie and CSRF token, as the browser does. */
async function signIn(fields: Record<string, string>): Promise<ConsoleClient & { status: number; message?: string }> {
  const res = await fetch(`${consoleUrl}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  const body = (await res.json()) as any;
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return {
    status: res.status,
    message: body.message,
    async call(method, pathAndQuery, payload) {
      const headers: Record<string, string> = { cookie, accept: 'application/json' };
      if (method !== 'GET') Object.assign(headers, { 'content-type': 'application/json', 'x-csrf-token': body.csrfToken });
      const answer = await fetch(consoleUrl + pathAndQuery, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : undefined, headers: answer.headers };
    },
  };
}

/** The console of findings-api takes the operator token of the shared token file as the operator's password. */
function operatorPassword(): string {
  return cluster.adminToken();
}

describe('distributed: the console on findings-api uses the account and rules services over HTTP', () => {
  it("lets an operator create keys, set their expiry and revoke them, and an analyst list, upload and delete rules", async () => {
    await cluster.withLogsOnFailure(async () => {
      const operator = await signIn({ role: 'operator', password: operatorPassword() });
      expect(operator.status).toBe(200);

      const listed = await operator.call('GET', '/keys');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('x-request-id')).toBeTruthy();
      expect(listed.body.keys.map((k: any) => k.prefix)).toContain(cluster.key.slice(0, 12));

      const created = await operator.call('POST', '/keys', { workspace: 'split-console' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ workspaceName: 'split-console', status: 'active' });
      expect(created.body.key).toMatch(/^vgl_/);
      const key: string = created.body.key;
      // The account service owns keys: the new one is in its own listing, not a copy held by the console.
      const direct = await cluster.request('GET', '/admin/v1/keys', { key: null, headers: { authorization: `Bearer ${cluster.adminToken()}` } });
      expect(direct.body.map((k: any) => k.keyHash)).toContain(created.body.keyHash);

      const workspaces = await operator.call('GET', '/workspaces');
      expect(workspaces.status).toBe(200);
      expect(workspaces.body.workspaces.find((w: any) => w.workspaceName === 'split-console')?.status).toMatchObject({ registered: true, expired: false });

      // The key reaches findings-api's key directory through the control topic within moments.
      const analyst = await eventually(async () => {
        const session = await signIn({ role: 'analyst', apiKey: key });
        return session.status === 200 ? session : undefined;
      }, 20_000);

      const empty = await analyst.call('GET', '/rules');
      expect(empty).toMatchObject({ status: 200, body: { rules: [] } });

      const uploaded = await analyst.call('POST', '/rules', { zip: markerRuleZip(RULE_ID, 'split-console.test').toString('base64') });
      expect(uploaded).toMatchObject({ status: 200, body: { accepted: 1 } });
      const bad = writeZip([{ name: 'broken.yml', data: 'title: no detection here\nlogsource:\n  category: dns\n' }]);
      const refused = await analyst.call('POST', '/rules', { zip: bad.toString('base64'), dryRun: true });
      expect(refused.status).toBe(400);
      expect(refused.body.validationResult.errors[0].fileName).toBe('broken.yml');

      const rules = await analyst.call('GET', '/rules');
      expect(rules.status).toBe(200);
      expect(rules.body.rules.map((r: any) => r.id)).toEqual([RULE_ID]);
      // The rules service stored it for the analyst's workspace: its own API shows it for that key only.
      const viaRules = await cluster.request('GET', '/v1/detections', { key });
      expect(viaRules.body.rules.map((r: any) => r.id)).toEqual([RULE_ID]);
      expect((await cluster.request('GET', '/v1/detections')).body.rules).toEqual([]);

      const dictionaries = await analyst.call('GET', '/dictionaries');
      expect(dictionaries.status).toBe(200);
      expect(Object.keys(dictionaries.body.threats).length).toBeGreaterThan(0);

      // Expiry goes through the account service's PATCH /admin/v1/keys/:id; the key directories follow it.
      const keyListing = async () =>
        (await cluster.request('GET', '/admin/v1/keys', { key: null, headers: { authorization: `Bearer ${cluster.adminToken()}` } })).body.find(
          (k: any) => k.keyHash === created.body.keyHash,
        );
      const future = await operator.call('POST', `/keys/${created.body.keyHash}/expiry`, { expiresAt: '2031-01-31T00:00:00Z' });
      expect(future).toMatchObject({ status: 201, body: { keyHash: created.body.keyHash, expiresAt: '2031-01-31T00:00:00.000Z', workspaceName: 'split-console' } });
      expect((await keyListing()).expiresAt).toBe('2031-01-31T00:00:00.000Z');
      expect((await operator.call('POST', `/keys/${created.body.keyHash}/expiry`, { expiresAt: '2020-01-01T00:00:00Z' })).status).toBe(201);
      await eventually(async () => ((await analyst.call('GET', '/rules')).status === 403 ? true : undefined), 20_000);
      const cleared = await operator.call('POST', `/keys/${created.body.keyHash}/expiry`, { expiresAt: null });
      expect(cleared).toMatchObject({ status: 201, body: { expiresAt: null } });
      expect((await keyListing()).expiresAt).toBeNull();
      await eventually(async () => ((await analyst.call('GET', '/rules')).status === 200 ? true : undefined), 20_000);
      expect((await operator.call('POST', '/keys/0000000000000000/expiry', { expiresAt: null })).status).toBe(404);
      expect((await operator.call('POST', '/keys/0000000000000000/revoke', {})).status).toBe(404);

      // Deleting one rule goes through the rules service's operator route, for the analyst's own workspace only:
      // the same rule id stored by another workspace (the bootstrap key's) stays.
      const otherWorkspace = await cluster.request('POST', '/v1/detections', { headers: ZIP_HEADERS, body: markerRuleZip(RULE_ID, 'other-workspace.test') });
      expect(otherWorkspace.body).toEqual({ accepted: 1 });
      const deleted = await analyst.call('POST', '/rules/delete', { id: RULE_ID });
      expect(deleted).toMatchObject({ status: 200, body: { deleted: [RULE_ID] } });
      expect((await analyst.call('GET', '/rules')).body.rules).toEqual([]);
      expect((await cluster.request('GET', '/v1/detections', { key })).body.rules).toEqual([]);
      expect((await cluster.request('GET', '/v1/detections')).body.rules.map((r: any) => r.id)).toEqual([RULE_ID]);
      const gone = await analyst.call('POST', '/rules/delete', { id: RULE_ID });
      expect(gone.status).toBe(404);
      expect(gone.body.message).toMatch(/no stored rule|No stored rule/);

      const revoked = await operator.call('POST', `/keys/${created.body.keyHash}/revoke`, {});
      expect(revoked).toMatchObject({ status: 201, body: { status: 'revoked', workspaceName: 'split-console' } });
      await eventually(async () => ((await analyst.call('GET', '/rules')).status === 401 ? true : undefined), 20_000);
    });
  });
});
