// Container health check: GET /readyz of the Vigil process in this container (HTTP or HTTPS, as configured).
// Exit 0 when it answers 200, 1 otherwise. The certificate is not verified: the check talks to itself on loopback.
'use strict';
const http = require('node:http');
const https = require('node:https');

const port = Number(process.env.VIGIL_PORT || 8080);
const secure = process.env.VIGIL_TLS_SELF_SIGNED === '1' || process.env.VIGIL_TLS_SELF_SIGNED === 'true' || Boolean(process.env.VIGIL_TLS_CERT);
const request = (secure ? https : http).get(
  { host: '127.0.0.1', port, path: '/readyz', timeout: 2500, rejectUnauthorized: false },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`);
  process.exit(1);
});
