import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { verifyWebhookSignature } from '@vigil/escalations';
import { api, eventually, freePort, makeTempDir, runCli, startVigil, type VigilProcess } from '@vigil/testing';
import { selfSignedLocalhost } from '../../../libs/escalations/src/testing/tls-material';
import { WebhookReceiver } from '../../../libs/escalations/src/testing/webhook-receiver';
import { DNS_COLUMNS, zeekDnsRow, zeekTsvLog } from '../../../libs/log-formats/src/testing/zeek-tsv';
import { tunnelQueries } from './telemetry';

const SECRET = 'e2e-sftp-webhook-signing-secret-01';

interface SftpRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('SFTP ingest with the OpenSSH sftp client against a real all-in-one', () => {
  const files = makeTempDir('vigil-e2e-sftp-');
  let vigil: VigilProcess;
  let webhook: WebhookReceiver;
  let sftpPort: number;
  let workspaceId: string;
  const goodKey = path.join(files.path, 'sensor_ed25519');
  const wrongKey = path.join(files.path, 'stranger_ed25519');
  const cli = (...args: string[]) => runCli(args, { VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PORT: new URL(vigil.baseUrl).port });

  /** `sftp -b` (batch mode: a failing command without a leading `-` ends the run with exit code 1). */
  function sftp(commands: string[], key = goodKey, user = workspaceId): Promise<SftpRun> {
    const batch = path.join(files.path, `batch-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(batch, commands.join('\n') + '\n');
    const args = ['-b', batch, '-i', key, '-P', String(sftpPort), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR', `${user}@127.0.0.1`];
    return new Promise((resolve) => {
      const child = spawn('/usr/bin/sftp', args, { cwd: files.path, env: { ...process.env, SSH_AUTH_SOCK: '' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // A hung session fails the test instead of timing it out.
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  const metric = async (pattern: RegExp): Promise<number> => Number(pattern.exec((await api(vigil, 'GET', '/metrics', { key: null })).text)?.[1] ?? 0);

  beforeAll(async () => {
    for (const file of [goodKey, wrongKey]) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', path.basename(file), '-f', file]);
    const tls = await selfSignedLocalhost();
    fs.writeFileSync(path.join(files.path, 'ca.pem'), tls.cert);
    fs.writeFileSync(path.join(files.path, 'secret'), SECRET + '\n');
    webhook = await WebhookReceiver.start({ tls });
    sftpPort = await freePort();
    vigil = await startVigil({ env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_LOG_LEVEL: 'log', VIGIL_SFTP_PORT: String(sftpPort), VIGIL_SFTP_MAX_FILE_MB: '1' } });
    const added = await cli('sftp-keys', 'add', '--workspace', 'default', '--name', 'zeek-sensor-1', '--json', `${goodKey}.pub`);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    workspaceId = JSON.parse(added.stdout).workspaceId;
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
  }, 120_000);

  afterAll(async () => {
    await vigil?.stop();
    await webhook?.stop();
    files.cleanup();
  });

  it('generated a host key in the data dir and lists the registered key by fingerprint', async () => {
    expect(fs.statSync(path.join(vigil.dataDir, 'sftp', 'ssh_host_ed25519_key')).mode & 0o777).toBe(0o600);
    const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${goodKey}.pub`], { encoding: 'utf8' }).split(' ')[1];
    const listed = await cli('sftp-keys', 'list', '--workspace', 'default');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`zeek-sensor-1\tdefault\t${workspaceId}\tssh-ed25519\t${fingerprint}`);
    const privateKey = await cli('sftp-keys', 'add', '--workspace', 'default', goodKey);
    expect(privateKey.code).toBe(2);
    expect(privateKey.stderr).toMatch(/private key/);
    expect((await cli('sftp-keys', 'add', '--workspace', 'no-such-workspace', `${wrongKey}.pub`)).code).toBe(2);
  });

  it('refuses a key that is not registered for the workspace, and a registered key for another user', async () => {
    const before = await metric(/^vigil_sftp_auth_failures_total (\d+)/m);
    const wrong = await sftp(['ls'], wrongKey);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/Permission denied \(publickey\)/);
    const otherUser = await sftp(['ls'], goodKey, '00000000-0000-4000-8000-000000000000');
    expect(otherUser.code).not.toBe(0);
    expect(otherUser.stderr).toMatch(/Permission denied/);
    expect(await metric(/^vigil_sftp_auth_failures_total (\d+)/m)).toBeGreaterThanOrEqual(before + 2);
    await vigil.outputMatching(/SFTP sign-in refused for user "00000000-0000-4000-8000-000000000000"/);
  });

  it('refuses path traversal and uploads outside the area', async () => {
    fs.writeFileSync(path.join(files.path, 'probe.log'), 'x\n');
    const run = await sftp(['-put probe.log ../escape.log', '-put probe.log /../../tmp/escape.log', '-put probe.log /tmp/escape.log', '-mkdir sub', '-put probe.log sub/x.log', 'pwd']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Remote working directory: \//);
    expect(run.stderr.match(/Permission denied|Failure|not found|No such file/gi)?.length ?? 0).toBeGreaterThanOrEqual(5);
    expect(fs.existsSync('/tmp/escape.log')).toBe(false);
    await vigil.outputMatching(/SFTP \w+ refused for workspace [0-9a-f-]+ from 127\.0\.0\.1: "[^"]*\.\.\/escape\.log": path traversal/);
    await vigil.outputMatching(/SFTP \w+ refused .*"\/tmp\/escape\.log": only files directly in your upload area/);
    // A failing command ends a batch run (no leading "-"): the client reports the refusal with exit code 1.
    expect((await sftp(['put probe.log ../escape.log'])).code).toBe(1);
  });

  it('refuses reading anything: files outside the area, listings outside it, and its own uploads', async () => {
    const run = await sftp(['-get /etc/passwd passwd-1', '-get ../../../etc/passwd passwd-2', '-ls /etc', '-ls ..', '-cd /etc', '-get /proc/self/environ env-3']);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/root:x:0:0/);
    for (const local of ['passwd-1', 'passwd-2', 'env-3']) expect(fs.existsSync(path.join(files.path, local)) && fs.statSync(path.join(files.path, local)).size > 0).toBe(false);
    await vigil.outputMatching(/SFTP \w+ refused .*"\/etc\/passwd": only files directly in your upload area/);
    await vigil.outputMatching(/SFTP \w+ refused .*"\/\.\.\/\.\.\/\.\.\/etc\/passwd": path traversal/);

    fs.writeFileSync(path.join(files.path, 'empty.log'), '');
    const own = await sftp(['put empty.log', '-get empty.log back.log', 'ls -l']);
    expect(own.code).toBe(0);
    expect(own.stderr).toMatch(/Permission denied|write-only/);
    expect(own.stdout).toMatch(/empty\.log/);
    expect(fs.existsSync(path.join(files.path, 'back.log')) && fs.statSync(path.join(files.path, 'back.log')).size > 0).toBe(false);
  });

  it('refuses a file over the size cap (1 MB here), also gzip, and imports nothing of it', async () => {
    const before = await metric(/^vigil_events_accepted_total\{type="dns"\} (\d+)/m);
    const rows = Array.from({ length: 12_000 }, (_, i) => zeekDnsRow((Date.now() / 1000).toFixed(6), '10.66.0.1', 1000 + (i % 50000), `big-${i}.example.com`, 'A', '1'));
    fs.writeFileSync(path.join(files.path, 'big-dns.log.gz'), gzipSync(zeekTsvLog('dns', DNS_COLUMNS, rows)));
    expect(fs.statSync(path.join(files.path, 'big-dns.log.gz')).size).toBeLessThan(1024 * 1024);
    const run = await sftp(['put big-dns.log.gz']);
    expect(run.code).toBe(1);
    await vigil.outputMatching(/upload [0-9a-f-]+\/big-dns\.log\.gz from 127\.0\.0\.1 failed \(too_large\).*nothing of it was imported/);
    expect(await metric(/^vigil_events_accepted_total\{type="dns"\} (\d+)/m)).toBe(before);
  });

  it('imports a Zeek dns.log with a DNS tunnel: the finding is served by GET /v1/findings and delivered to the webhook', async () => {
    const added = await cli('escalations', 'add', '--workspace', 'default', '--name', 'sftp-siem', '--webhook', webhook.url, '--ca-file', path.join(files.path, 'ca.pem'), '--secret-file', path.join(files.path, 'secret'), '--json');
    expect(added.code).toBe(0);

    const host = '10.61.0.7';
    const domain = `sftp${Date.now().toString(36)}.com`;
    const epoch = (iso: string) => (Date.parse(iso) / 1000).toFixed(6);
    const rows = tunnelQueries(host, domain, 40).map((e, i) => zeekDnsRow(epoch(e.ts!), host, 40000 + i, e.query));
    const malformed = zeekDnsRow(epoch(new Date().toISOString()), 'not-an-address', 1, 'x.example.com');
    const log = zeekTsvLog('dns', DNS_COLUMNS, [...rows.slice(0, 20), malformed, ['short', 'row'], ...rows.slice(20)]);
    fs.writeFileSync(path.join(files.path, 'dns.log'), log);
    const before = await metric(/^vigil_events_accepted_total\{type="dns"\} (\d+)/m);

    const started = Date.now();
    const run = await sftp(['put dns.log', 'ls -l']);
    const uploadMs = Date.now() - started;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/dns\.log/);
    // The close was acknowledged only after the events were on the bus.
    expect(await metric(/^vigil_events_accepted_total\{type="dns"\} (\d+)/m)).toBe(before + 40);
    await vigil.outputMatching(new RegExp(`upload ${workspaceId}/dns\\.log from 127\\.0\\.0\\.1: \\d+ bytes, format zeek-dns, accepted dns=40, rejected \\S+=\\d+( \\S+=\\d+)*, skipped none, 1 batch\\(es\\)`));
    expect(await metric(/^vigil_sftp_records_rejected_total\{reason="[^"]+"\} (\d+)/m)).toBeGreaterThanOrEqual(1);

    const served = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
      return (page.body.records as any[]).find((f) => f.device?.ip === host);
    }, 60_000);
    const findingMs = Date.now() - started;
    expect(JSON.stringify(served)).toContain(domain);
    const delivery = await eventually(async () => webhook.accepted.find((r) => r.headers['idempotency-key'] === served.metadata.uid), 30_000);
    const deliveredMs = Date.now() - started;
    expect(JSON.parse(delivery.body.toString())).toEqual(served);
    const headers = { timestamp: delivery.headers['x-vigil-timestamp'] as string, signature: delivery.headers['x-vigil-signature'] as string };
    expect(verifyWebhookSignature(SECRET, headers, delivery.body)).toEqual({ ok: true });
    process.stdout.write(`sftp e2e: upload ${uploadMs} ms, finding served after ${findingMs} ms, webhook delivery after ${deliveredMs} ms\n`);
  });

  it('stops accepting a removed key', async () => {
    const listed = JSON.parse((await cli('sftp-keys', 'list', '--json')).stdout) as Array<{ id: string }>;
    expect(listed).toHaveLength(1);
    const removed = await cli('sftp-keys', 'remove', listed[0].id);
    expect(removed.code).toBe(0);
    const run = await sftp(['ls']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Permission denied/);
  });
});
