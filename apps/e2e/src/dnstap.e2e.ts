import * as net from 'node:net';
import * as path from 'node:path';
import type { RecordType } from 'dns-packet';
import { api, eventually, freePort, makeTempDir, startVigil, type VigilProcess } from '@vigil/testing';
import { ACCEPT, FINISH, READY, START, STOP, queryFrame } from '../../../libs/gateway/src/dnstap/testing/dnstap-frames';
import { encodeDataFrame } from '../../../libs/gateway/src/dnstap/frame-streams';
import { tunnelQueries } from './telemetry';

/** A dnstap sender as BIND or Unbound runs it: a bidirectional Frame Streams writer. */
class Sender {
  private received = Buffer.alloc(0);
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static connect(target: { port: number } | { path: string }): Promise<Sender> {
    return new Promise((resolve, reject) => {
      const socket = net.connect('port' in target ? { port: target.port, host: '127.0.0.1' } : { path: target.path }, () => resolve(new Sender(socket)));
      socket.once('error', reject);
    });
  }

  /** READY → ACCEPT (with the dnstap content type) → START. */
  async handshake(): Promise<void> {
    this.socket.write(READY);
    expect(await this.read(ACCEPT.length)).toEqual(ACCEPT);
    this.socket.write(START);
  }

  send(frames: Buffer[]): void {
    this.socket.write(Buffer.concat(frames));
  }

  /** STOP → FINISH, then the server closes. */
  async stop(): Promise<void> {
    this.socket.write(STOP);
    expect(await this.read(FINISH.length)).toEqual(FINISH);
    this.socket.end();
    await this.closed;
  }

  private async read(length: number): Promise<Buffer> {
    await eventually(async () => (this.received.length >= length ? true : undefined), 10_000, 20);
    const head = this.received.subarray(0, length);
    this.received = this.received.subarray(length);
    return head;
  }
}

describe('dnstap ingest (Frame Streams over TCP and a Unix socket) against a real all-in-one', () => {
  const files = makeTempDir('vigil-e2e-dnstap-');
  const socketPath = path.join(files.path, 'dnstap.sock');
  let vigil: VigilProcess;
  let port: number;

  const metric = async (pattern: RegExp): Promise<number> => Number(pattern.exec((await api(vigil, 'GET', '/metrics', { key: null })).text)?.[1] ?? 0);
  const acceptedDns = () => metric(/^vigil_events_accepted_total\{type="dns"\} (\d+)/m);

  /** A query and its response, as a resolver logging `client` messages writes them. */
  const lookup = (srcIP: string, name: string, qtype: string, time: number) => [
    queryFrame({ srcIP, name, qtype: qtype as RecordType, time, srcPort: 40000 + (time % 20000) }),
    queryFrame({ type: 'CLIENT_RESPONSE', srcIP, name, qtype: qtype as RecordType, time: time + 3 }),
  ];

  beforeAll(async () => {
    port = await freePort();
    // The bootstrap key's workspace is "default": dnstap events attributed to it are served to that key.
    vigil = await startVigil({ env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_LOG_LEVEL: 'log', VIGIL_DNSTAP_PORT: String(port), VIGIL_DNSTAP_SOCKET: socketPath, VIGIL_DNSTAP_WORKSPACE: 'default' } });
  }, 120_000);

  afterAll(async () => {
    await vigil?.stop();
    files.cleanup();
  });

  it('turns a DNS tunnel burst sent as dnstap frames into a finding served by GET /v1/findings', async () => {
    const host = '10.62.0.9';
    const domain = `dnstap${Date.now().toString(36)}.com`;
    const queries = tunnelQueries(host, domain, 40);
    const before = await acceptedDns();
    const sender = await Sender.connect({ port });
    await sender.handshake();
    // Split mid-frame on purpose: the frames arrive over several writes.
    const stream = Buffer.concat(queries.flatMap((q) => lookup(host, q.query, q.qtype!, Date.parse(q.ts!))));
    for (let at = 0; at < stream.length; at += 777) sender.send([stream.subarray(at, at + 777)]);
    // FINISH comes once the events are on the bus.
    await sender.stop();
    expect(await acceptedDns()).toBe(before + 40);
    await vigil.outputMatching(/dnstap tcp 127\.0\.0\.1:\d+ \(workspace [0-9a-f-]{36}\) ended, stopped by the sender: 80 frame\(s\), 40 event\(s\), accepted 40, rejected none, skipped response_of_logged_query=40/);

    const finding = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
      expect(page.status).toBe(200);
      return (page.body.records as any[]).find((f) => f.device?.ip === host);
    }, 60_000);
    expect(JSON.stringify(finding)).toContain(domain);
    expect(JSON.stringify(finding)).toMatch(/dns_tunnel|tunnel/i);
  });

  it('closes only the connection of a malformed frame: the other senders, TCP and Unix socket, carry on', async () => {
    const before = await acceptedDns();
    const closedBefore = await metric(/^vigil_dnstap_connections_closed_total\{reason="invalid_protobuf"\} (\d+)/m);
    const now = Date.now();
    const good = await Sender.connect({ port });
    await good.handshake();
    good.send(lookup('10.62.1.1', 'www.example.com', 'A', now));

    const bad = await Sender.connect({ port });
    await bad.handshake();
    bad.send([queryFrame({ srcIP: '10.62.1.2', name: 'before.example.com', time: now }), encodeDataFrame(Buffer.from('this is not a dnstap protobuf'))]);
    await bad.closed; // closed by the server
    expect(bad.socket.destroyed).toBe(true);
    await vigil.outputMatching(/dnstap tcp 127\.0\.0\.1:\d+: stream error, connection closed: not a dnstap protobuf: .* \(invalid_protobuf\)/);
    expect(await metric(/^vigil_dnstap_connections_closed_total\{reason="invalid_protobuf"\} (\d+)/m)).toBe(closedBefore + 1);

    // Not Frame Streams at all (an HTTP request): closed before any handshake.
    const http = await Sender.connect({ port });
    http.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await http.closed;
    await vigil.outputMatching(/stream error, connection closed: a data frame arrived before START \(data_before_start\)/);

    // The first sender was not disturbed, and a new one over the Unix socket is served.
    good.send(lookup('10.62.1.1', 'mail.example.com', 'MX', now + 10));
    await good.stop();
    const local = await Sender.connect({ path: socketPath });
    await local.handshake();
    local.send(lookup('2001:db8::77', 'ipv6.example.net', 'AAAA', now + 20));
    await local.stop();
    await vigil.outputMatching(/dnstap unix .*dnstap\.sock \(workspace [0-9a-f-]{36}\) ended, stopped by the sender: 2 frame\(s\), 1 event\(s\), accepted 1/);
    // good: 2 queries; bad: the query before its malformed frame; local: 1 query.
    await eventually(async () => ((await acceptedDns()) === before + 4 ? true : undefined), 5000);
    expect(await metric(/^vigil_dnstap_connections (\d+)/m)).toBe(0);
  });
});
