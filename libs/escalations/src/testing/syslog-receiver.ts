/* Test fixtures of this lib (not exported from the lib). */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { TlsMaterial } from './tls-material';

/** The fields of one RFC 5424 message. */
export interface ParsedSyslog {
  pri: number;
  facility: number;
  severity: number;
  version: number;
  timestamp: string;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  structuredData: string;
  msg: string;
}

/**
 * RFC 5424 `SYSLOG-MSG` without structured data elements (this parser accepts only NILVALUE there, which is what
 * Vigil sends): `<PRI>VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP SD [SP MSG]`.
 */
const RFC5424 = /^<(\d{1,3})>([1-9]\d{0,2}) (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})|-) ([\x21-\x7e]{1,255}) ([\x21-\x7e]{1,48}) ([\x21-\x7e]{1,128}) ([\x21-\x7e]{1,32}) (-)(?: ([\s\S]*))?$/;

export function parseRfc5424(message: Buffer): ParsedSyslog {
  const match = RFC5424.exec(message.toString('utf8'));
  if (!match) throw new Error(`not an RFC 5424 message: ${message.toString('utf8').slice(0, 120)}`);
  const pri = Number(match[1]);
  if (pri > 191) throw new Error(`PRI ${pri} out of range`);
  return {
    pri,
    facility: pri >> 3,
    severity: pri & 7,
    version: Number(match[2]),
    timestamp: match[3],
    hostname: match[4],
    appName: match[5],
    procId: match[6],
    msgId: match[7],
    structuredData: match[8],
    msg: match[9] ?? '',
  };
}

/**
 * Splits an RFC 6587 octet-counted stream (`MSG-LEN SP SYSLOG-MSG`, MSG-LEN in bytes) into messages; anything
 * that does not follow the framing throws.
 */
export class OctetCountedDecoder {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      const space = this.buffer.indexOf(0x20);
      if (space === -1) {
        if (this.buffer.length > 10) throw new Error('no MSG-LEN at the start of a frame');
        return out;
      }
      const lengthText = this.buffer.subarray(0, space).toString('ascii');
      if (!/^[1-9]\d{0,8}$/.test(lengthText)) throw new Error(`invalid MSG-LEN ${JSON.stringify(lengthText)}`);
      const length = Number(lengthText);
      if (this.buffer.length < space + 1 + length) return out;
      out.push(this.buffer.subarray(space + 1, space + 1 + length));
      this.buffer = this.buffer.subarray(space + 1 + length);
    }
  }
}

/** A real TCP (or TLS) syslog collector that decodes octet-counted frames and parses them as RFC 5424. */
export class SyslogReceiver {
  readonly messages: ParsedSyslog[] = [];
  readonly errors: string[] = [];
  /** Client certificates presented over TLS (subject CN), when the receiver asks for one. */
  readonly clientNames: string[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(options: { tls?: TlsMaterial; requestClientCertificateFrom?: string } = {}): Promise<SyslogReceiver> {
    let receiver!: SyslogReceiver;
    const onSocket = (socket: net.Socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
      if (socket instanceof tls.TLSSocket) {
        const peer = socket.getPeerCertificate();
        if (peer?.subject?.CN) receiver.clientNames.push(String(peer.subject.CN));
      }
      const decoder = new OctetCountedDecoder();
      socket.on('data', (chunk: Buffer) => {
        try {
          for (const frame of decoder.push(chunk)) receiver.messages.push(parseRfc5424(frame));
        } catch (error) {
          receiver.errors.push(String(error));
          socket.destroy();
        }
      });
      socket.on('error', () => undefined);
    };
    const server = options.tls
      ? tls.createServer(
          {
            cert: options.tls.cert,
            key: options.tls.key,
            ...(options.requestClientCertificateFrom ? { requestCert: true, rejectUnauthorized: true, ca: options.requestClientCertificateFrom } : {}),
          },
          onSocket,
        )
      : net.createServer(onSocket);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new SyslogReceiver(server, (server.address() as net.AddressInfo).port);
    return receiver;
  }

  /** Drops every open connection (a collector restart, as the sender sees it). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
