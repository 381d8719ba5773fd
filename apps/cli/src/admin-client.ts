import * as http from 'node:http';
import * as https from 'node:https';
import type { VigilConfig } from '@vigil/config';

export class ServerUnreachableError extends Error {}

export interface AdminResponse {
  status: number;
  body: unknown;
}

/** Calls the operator API of a running Vigil on this machine (self-signed certificates accepted on loopback). */
export function callAdmin(config: VigilConfig, token: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<AdminResponse> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const secure = config.tls.kind !== 'none';
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const transport = secure ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      {
        host,
        port: config.port,
        path,
        method,
        rejectUnauthorized: false,
        timeout: 10_000,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* keep text */
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') reject(new ServerUnreachableError(`no server on ${host}:${config.port}`));
      else reject(error);
    });
    request.on('timeout', () => request.destroy(new Error('the server did not answer within 10 s')));
    if (payload) request.write(payload);
    request.end();
  });
}
