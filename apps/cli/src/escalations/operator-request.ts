import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { operatorTokenFile } from '@vigil/account';
import type { VigilConfig } from '@vigil/config';
import { UsageError } from '../keys-command';

/** The running server could not be reached (nothing listens, or it broke the connection). */
export class OperatorApiUnavailableError extends Error {}

export interface OperatorResponse {
  status: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

export interface OperatorRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  timeoutMs?: number;
}

function readToken(config: VigilConfig): string {
  const file = operatorTokenFile(config);
  if (!fs.existsSync(file)) throw new UsageError(`no operator token at ${file}: start Vigil with this data directory (VIGIL_DATA_DIR) first`);
  return fs.readFileSync(file, 'utf8').trim();
}

/** Opens a request to the operator API of the Vigil on this machine (self-signed certificates accepted on loopback). */
function open(config: VigilConfig, request: OperatorRequest, onResponse: (response: http.IncomingMessage) => void, onError: (error: Error) => void): void {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  const transport = config.tls.kind === 'none' ? http : https;
  const timeoutMs = request.timeoutMs ?? 15_000;
  const outgoing = transport.request(
    {
      host,
      port: config.port,
      path: request.path,
      method: request.method,
      rejectUnauthorized: false,
      timeout: timeoutMs,
      headers: {
        authorization: `Bearer ${readToken(config)}`,
        accept: 'application/json, application/x-ndjson',
        ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
      },
    },
    onResponse,
  );
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET') onError(new OperatorApiUnavailableError(`no Vigil server answers on ${host}:${config.port} (${error.code}); start it first`));
    else onError(error);
  });
  outgoing.on('timeout', () => outgoing.destroy(new Error(`the server did not answer within ${timeoutMs / 1000} s`)));
  outgoing.end(payload);
}

/** One JSON request and its whole answer. */
export function operatorRequest(config: VigilConfig, request: OperatorRequest): Promise<OperatorResponse> {
  return new Promise((resolve, reject) => {
    open(
      config,
      request,
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* keep the text */
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
      reject,
    );
  });
}

/**
 * A GET whose NDJSON answer is handed over line by line as it arrives (each line without its newline). Returns
 * the status; a non-2xx answer's body is returned whole instead, for its `{message}`.
 */
export function operatorStream(config: VigilConfig, path: string, onLine: (line: string) => boolean | void): Promise<OperatorResponse> {
  return new Promise((resolve, reject) => {
    open(
      config,
      { method: 'GET', path, timeoutMs: 60_000 },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              /* keep the text */
            }
            resolve({ status, body });
          });
          return;
        }
        let pending = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          pending += chunk;
          let newline: number;
          while ((newline = pending.indexOf('\n')) !== -1) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            // false: the consumer is full; resume once it drained (stdout back-pressure).
            if (line !== '' && onLine(line) === false) {
              response.pause();
              process.stdout.once('drain', () => response.resume());
            }
          }
        });
        response.on('error', reject);
        response.on('end', () => {
          if (pending.trim() !== '') onLine(pending);
          resolve({ status, body: undefined });
        });
      },
      reject,
    );
  });
}

/** The `{message}` of an error answer, or a generic line. */
export function errorMessage(response: OperatorResponse): string {
  const message = (response.body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : `the server answered ${response.status}`;
}
