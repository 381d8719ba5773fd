import Fastify from 'fastify';
import { allowedMethods, pathOf } from './route-table';

describe('allowedMethods', () => {
  it('asks the server\'s own router which methods serve a concrete path', async () => {
    const fastify = Fastify();
    fastify.post('/v1/events/:type', async () => 'x');
    fastify.get('/v1/findings', async () => 'x');
    fastify.get('/admin/v1/keys', async () => 'x');
    fastify.post('/admin/v1/keys', async () => 'x');
    await fastify.ready();
    expect(allowedMethods(fastify, '/v1/events/dns')).toEqual(['POST']);
    expect(allowedMethods(fastify, '/v1/findings')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods(fastify, '/admin/v1/keys')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(fastify, '/v1/nowhere')).toEqual([]);
    expect(allowedMethods(fastify, '/v1/findings/extra')).toEqual([]);
    await fastify.close();
  });

  it('takes the path without its query string', () => {
    expect(pathOf('/v1/findings?maxAge=1d&x=?')).toBe('/v1/findings');
    expect(pathOf('/healthz')).toBe('/healthz');
  });
});
