import * as path from 'node:path';
import * as protobuf from 'protobufjs';

/** Where the schema lives; built apps copy it next to the compiled code (an asset of the app's build). */
export const DNSTAP_PROTO_PATH = path.join(__dirname, 'dnstap.proto');

/** `dnstap.Message.Type` values. */
export const MESSAGE_TYPE = {
  AUTH_QUERY: 1,
  AUTH_RESPONSE: 2,
  RESOLVER_QUERY: 3,
  RESOLVER_RESPONSE: 4,
  CLIENT_QUERY: 5,
  CLIENT_RESPONSE: 6,
  FORWARDER_QUERY: 7,
  FORWARDER_RESPONSE: 8,
} as const;

/** The fields of a `dnstap.Message` that the mapping reads (bytes as Buffers, 64-bit times as numbers). */
export interface DnstapMessage {
  type: number;
  queryAddress?: Buffer;
  queryPort?: number;
  queryTimeSec?: number;
  queryTimeNsec?: number;
  queryMessage?: Buffer;
  responseTimeSec?: number;
  responseTimeNsec?: number;
  responseMessage?: Buffer;
}

/** A data frame that is not a dnstap protobuf of type MESSAGE (the sender speaks something else). */
export class DnstapDecodeError extends Error {
  override readonly name = 'DnstapDecodeError';
}

let schema: { dnstap: protobuf.Type; message: protobuf.Type } | undefined;

/** Loads `dnstap.proto` once (lazily, so a gateway without dnstap never reads it). */
export function dnstapSchema(): { dnstap: protobuf.Type; message: protobuf.Type } {
  if (!schema) {
    const root = protobuf.loadSync(DNSTAP_PROTO_PATH);
    schema = { dnstap: root.lookupType('dnstap.Dnstap'), message: root.lookupType('dnstap.Message') };
  }
  return schema;
}

/** One data frame's payload → its Message; `undefined` for a Dnstap of another type (none are defined yet). */
export function decodeDnstap(payload: Buffer): DnstapMessage | undefined {
  let decoded: Record<string, unknown>;
  try {
    const { dnstap } = dnstapSchema();
    decoded = dnstap.toObject(dnstap.decode(payload), { enums: Number, longs: Number, bytes: Buffer }) as Record<string, unknown>;
  } catch (error) {
    throw new DnstapDecodeError(`not a dnstap protobuf: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (decoded.type !== 1) return undefined;
  const message = decoded.message as Record<string, unknown> | undefined;
  if (message === undefined) throw new DnstapDecodeError('a dnstap MESSAGE without its message');
  return {
    type: message.type as number,
    queryAddress: bytesOf(message.queryAddress),
    queryPort: message.queryPort as number | undefined,
    queryTimeSec: message.queryTimeSec as number | undefined,
    queryTimeNsec: message.queryTimeNsec as number | undefined,
    queryMessage: bytesOf(message.queryMessage),
    responseTimeSec: message.responseTimeSec as number | undefined,
    responseTimeNsec: message.responseTimeNsec as number | undefined,
    responseMessage: bytesOf(message.responseMessage),
  };
}

function bytesOf(value: unknown): Buffer | undefined {
  return Buffer.isBuffer(value) && value.length > 0 ? value : undefined;
}
