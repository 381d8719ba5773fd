import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../keys-command';
import { escalationBody } from './escalation-body';

describe('escalations add → request body', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cli-escalations-'));
  const file = (name: string, content: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    return p;
  };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('builds a webhook body, reading the secret and CA from files', () => {
    const body = escalationBody({
      workspace: 'acme',
      webhook: 'https://siem.example/hook',
      'secret-file': file('secret', 'from-a-file-0000001\n'),
      'ca-file': file('ca.pem', 'PEM'),
      header: ['Authorization: Splunk abc', 'X-Tenant:7'],
      'min-severity': '3',
      'max-attempts': '4',
    });
    expect(body).toEqual({
      workspace: 'acme',
      minSeverity: 3,
      retry: { maxAttempts: 4 },
      webhook: { url: 'https://siem.example/hook', secret: 'from-a-file-0000001', caCert: 'PEM', headers: { Authorization: 'Splunk abc', 'X-Tenant': '7' } },
    });
  });

  it('builds syslog and kafka bodies', () => {
    expect(escalationBody({ workspace: 'w', syslog: 'collector.lan:6514', encoding: 'cef', format: 'alert', facility: '13' })).toEqual({
      workspace: 'w',
      format: 'alert',
      syslog: { host: 'collector.lan', port: 6514, encoding: 'cef', facility: 13 },
    });
    expect(
      escalationBody({ workspace: 'w', kafka: 'k1:9092, k2:9092', topic: 'siem', tls: true, 'sasl-username': 'u', 'sasl-password-file': file('pw', 'pw-1\n'), 'sasl-mechanism': 'scram-sha-512' }),
    ).toEqual({ workspace: 'w', kafka: { brokers: ['k1:9092', 'k2:9092'], topic: 'siem', tls: true, sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'pw-1' } } });
  });

  it.each([
    [{ webhook: 'https://x/' }, /--workspace/],
    [{ workspace: 'w' }, /exactly one of --webhook/],
    [{ workspace: 'w', webhook: 'https://x/', syslog: 'h:1' }, /exactly one/],
    [{ workspace: 'w', syslog: 'no-port' }, /HOST:PORT/],
    [{ workspace: 'w', webhook: 'https://x/', 'secret-file': '/nonexistent/secret' }, /--secret-file: cannot read/],
    [{ workspace: 'w', webhook: 'https://x/', header: ['no colon'] }, /Name: value/],
    [{ workspace: 'w', webhook: 'https://x/', 'min-severity': 'high' }, /--min-severity takes a whole number/],
  ])('refuses %j', (options, message) => {
    expect(() => escalationBody(options)).toThrow(UsageError);
    expect(() => escalationBody(options)).toThrow(message);
  });
});
