import type { FastifyReply } from 'fastify';

/** Answers with the API's error body, `{message}` (spec "Errors"), from a hook or filter outside Nest's handlers. */
export function replyWithMessage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).header('Content-Type', 'application/json; charset=utf-8').send({ message });
}
