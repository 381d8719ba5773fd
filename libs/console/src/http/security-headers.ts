import type { FastifyReply } from 'fastify';

/**
 * Every console response: scripts, styles, images and calls only from this origin, no inline script, no framing,
 * no plug-ins, no MIME sniffing, no referrer. Values from telemetry reach the page only as text.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function applySecurityHeaders(reply: FastifyReply): void {
  void reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Cross-Origin-Resource-Policy', 'same-origin');
}
