import { Logger, type DynamicModule, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig, type VigilConfig } from '@vigil/config';
import { createHttpApp } from './http/create-http-app';
import { HttpDrain } from './http/http-drain';
import { closeOnShutdownSignals } from './ops/graceful-shutdown';
import { PlatformModule } from './infra/platform.module';

export interface ServiceDefinition {
  /** Shown in logs: `all-in-one`, `ingest-gateway`, ... */
  name: string;
  features: (Type | DynamicModule)[];
}

class VigilRootModule {}

/** Composes a Vigil process from feature modules on top of the platform, ready to listen. */
export async function createVigilApp(service: ServiceDefinition, config: VigilConfig, drain?: HttpDrain): Promise<NestFastifyApplication> {
  const root: DynamicModule = { module: VigilRootModule, imports: [PlatformModule.forRoot(config), ...service.features] };
  return createHttpApp(root, config, drain);
}

/**
 * Entry point of every app's main.ts: reads the configuration (failing fast), starts, listens, and on SIGTERM lets
 * the requests in flight finish before the modules close (ops/graceful-shutdown.ts).
 */
export async function runVigilService(service: ServiceDefinition): Promise<void> {
  let config: VigilConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`vigil: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = new Logger(service.name);
  try {
    const drain = new HttpDrain();
    const app = await createVigilApp(service, config, drain);
    closeOnShutdownSignals(app, drain, logger);
    await app.listen({ port: config.port, host: config.host });
    const scheme = config.tls.kind === 'none' ? 'http' : 'https';
    logger.log(`listening on ${scheme}://${config.host}:${(app.getHttpServer().address() as { port: number }).port} (data: ${config.dataDir})`);
  } catch (error) {
    process.stderr.write(`vigil: ${service.name} failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  }
}
