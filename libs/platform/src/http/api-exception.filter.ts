import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replyWithMessage } from './message-reply';

interface ErrorWithStatus {
  statusCode?: number;
  message?: string;
  retryAfterSeconds?: number;
}

function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (Array.isArray(message)) return message.join('; ');
    if (typeof message === 'string') return message;
  }
  return fallback;
}

/**
 * Every error leaves as JSON `{message}` with its status: Nest HTTP exceptions, Fastify's own 4xx errors
 * (body too large, bad content type, malformed JSON), and 500 (logged, with a generic message) for anything
 * unexpected. Unknown paths and methods never get here: the request gate answers them 404/405 (request-gate.ts).
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    let status = 500;
    let message = 'Internal server error';
    let retryAfter: number | undefined;

    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOf(exception.getResponse(), exception.message);
      retryAfter = (exception as ErrorWithStatus).retryAfterSeconds;
    } else if (exception && typeof exception === 'object') {
      const candidate = exception as ErrorWithStatus;
      if (typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
        status = candidate.statusCode;
        message = candidate.message ?? 'Bad request';
        retryAfter = candidate.retryAfterSeconds;
      } else if (typeof candidate.statusCode === 'number' && candidate.statusCode === 503) {
        status = 503;
        message = candidate.message ?? 'Service unavailable';
        retryAfter = candidate.retryAfterSeconds ?? 5;
      }
    }

    if (status === 413) message = 'Request body too large: the limit applies after decompression (10 MB for telemetry, 50 MB for rule archives)';
    if (status >= 500) this.logger.error(`${request.method} ${request.url}: ${String((exception as Error)?.stack ?? exception)}`);
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    if (reply.sent) return;
    void replyWithMessage(reply, status, message);
  }
}
