import { loadConfig } from '@vigil/config';
import type { TelemetryIntake } from '../../telemetry-intake';
import { SftpUploads } from './sftp-uploads.service';

/** Stands in for the gateway's intake: accepts every event of a body (the intake itself is tested with the gateway). */
const intake = { accept: async (_ws: string, _type: string, body: Buffer) => ({ notJson: false, received: body.toString().split('\n').filter(Boolean).length, accepted: body.toString().split('\n').filter(Boolean).length, rejected: {} }) } as unknown as TelemetryIntake;

describe('SftpUploads', () => {
  it('holds each workspace to its upload rate, independently of the others', async () => {
    const uploads = new SftpUploads(intake, loadConfig({ VIGIL_SFTP_PORT: '2222', VIGIL_SFTP_RATE_LIMIT: '3/60s' }));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await uploads.begin('ws-a', `dns-${i}.log`));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, false]);
    expect(outcomes[3]).toMatchObject({ ok: false, message: expect.stringMatching(/rate limit.*retry in \d+ s/) });
    expect((await uploads.begin('ws-b', 'dns.log')).ok).toBe(true);
  });

  it('lists an imported file in the workspace area only, and reports a refused one to the client', async () => {
    const uploads = new SftpUploads(intake, loadConfig({ VIGIL_SFTP_PORT: '2222' }));
    const begun = await uploads.begin('ws-a', 'dns.log');
    if (!begun.ok) throw new Error(begun.message);
    const log = '#separator \\x09\n#path\tdns\n#fields\tts\tid.orig_h\tquery\n#types\ttime\taddr\tstring\n' + `${(Date.now() / 1000).toFixed(6)}\t10.0.0.1\ta.example.com\n`;
    await begun.upload.write(0, Buffer.from(log));
    expect(await uploads.finish('ws-a', begun.upload, '127.0.0.1')).toBeUndefined();
    expect(uploads.recent.list('ws-a')).toMatchObject([{ name: 'dns.log', size: log.length, outcome: 'imported' }]);
    expect(uploads.recent.list('ws-b')).toEqual([]);

    const junk = await uploads.begin('ws-a', 'notes.txt');
    if (!junk.ok) throw new Error(junk.message);
    await junk.upload.write(0, Buffer.from('hello\n'));
    expect(await uploads.finish('ws-a', junk.upload, '127.0.0.1')).toMatch(/cannot tell the log format.*nothing of it was imported/);
  });
});
