import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@vigil/config';
import { createVigilApp, credentialRuleFor } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { CustomerRulesService } from './customer-rules.service';
import { RulesModule } from './rules.module';
import { writeZip } from './testing/zip-writer';

const ACME = '7b0c1d2e-0000-4000-8000-00000000a001';
const GLOBEX = '7b0c1d2e-0000-4000-8000-00000000a002';
const RULE = '4f3e2d1c-0000-4000-8000-000000000001';
const OTHER_RULE = '4f3e2d1c-0000-4000-8000-000000000002';
const dnsRule = (id: string, domain: string) =>
  `title: Query for ${domain}\nid: ${id}\nstatus: test\nlevel: high\nlogsource:\n  category: dns\ndetection:\n  selection:\n    query|endswith: '.${domain}'\n  condition: selection\n`;

/** DELETE /admin/v1/workspaces/:workspaceId/rules/:ruleId on the real rules service (local bus, embedded store), over HTTP. */
describe('the rules service operator route that deletes one rule', () => {
  const temp = makeTempDir('vigil-admin-rules-');
  let app: NestFastifyApplication;
  let rules: CustomerRulesService;
  let baseUrl: string;
  let token: string;

  const remove = async (workspaceId: string, ruleId: string, authorization = `Bearer ${token}`) => {
    const response = await fetch(`${baseUrl}/admin/v1/workspaces/${workspaceId}/rules/${encodeURIComponent(ruleId)}`, { method: 'DELETE', headers: { authorization } });
    return { status: response.status, body: (await response.json()) as { deleted?: string[]; message?: string } };
  };
  const storedIds = async (workspaceId: string) => (await rules.list(workspaceId)).map((r) => r.id).sort();

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_LOG_LEVEL: 'error' });
    app = await createVigilApp({ name: 'admin-rules-spec', features: [RulesModule] }, config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    token = fs.readFileSync(path.join(temp.path, 'admin-token'), 'utf8').trim();
    rules = app.get(CustomerRulesService);
    const zip = writeZip([
      { name: 'a.yml', data: dnsRule(RULE, 'a.test') },
      { name: 'b.yml', data: dnsRule(OTHER_RULE, 'b.test') },
    ]);
    for (const workspace of [ACME, GLOBEX]) {
      const outcome = await rules.upload(workspace, zip, { mode: 'merge', dryRun: false });
      expect(outcome).toMatchObject({ valid: 2, invalid: 0 });
    }
  });

  afterAll(async () => {
    await app?.close();
    temp.cleanup();
  });

  it("deletes the rule of that workspace only, then answers 404 for it", async () => {
    expect(await remove(ACME, RULE)).toEqual({ status: 200, body: { deleted: [RULE] } });
    expect(await storedIds(ACME)).toEqual([OTHER_RULE]);
    expect(await storedIds(GLOBEX)).toEqual([RULE, OTHER_RULE].sort());

    const again = await remove(ACME, RULE);
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/no stored rule/);
    expect((await remove(GLOBEX, 'not-a-stored-rule')).status).toBe(404);
    expect(await storedIds(GLOBEX)).toEqual([RULE, OTHER_RULE].sort());
  });

  it('answers 400 for a workspace id that is not a UUID and 401 without the operator token', async () => {
    const bad = await remove('acme', OTHER_RULE);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/workspaceId/);
    for (const authorization of ['Bearer wrong', `Basic ${Buffer.from(`${token}:`).toString('base64')}`]) {
      const refused = await remove(GLOBEX, OTHER_RULE, authorization);
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/admin token/);
    }
    expect(await storedIds(GLOBEX)).toEqual([RULE, OTHER_RULE].sort());
  });

  it('is covered by the operator-token row of the route table', () => {
    expect(credentialRuleFor('/admin/v1/workspaces/:workspaceId/rules/:ruleId')?.credential).toBe('operator-token');
  });
});
