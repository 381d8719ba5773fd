import * as fs from 'node:fs';
import * as path from 'node:path';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Readiness } from '@vigil/platform';
import { ensureConsoleBuilt, locateConsole, type ConsolePaths } from './console-build';

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The console's built files, held in memory: index.html and the hashed files under assets/. Built on start-up
 * when missing or stale; served only by exact name, so no request path reaches the file system.
 */
@Injectable()
export class ConsoleAssetsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Console');
  private index?: ConsoleAsset;
  private readonly assets = new Map<string, ConsoleAsset>();
  private failure?: string;

  constructor(private readonly readiness: Readiness) {
    readiness.expect('console');
  }

  async onApplicationBootstrap(): Promise<void> {
    const paths = locateConsole();
    try {
      await ensureConsoleBuilt(paths, (m) => this.logger.log(m));
      this.load(paths);
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      this.logger.error(`the web console is unavailable: ${this.failure}`);
    }
    this.readiness.ready('console');
  }

  indexPage(): ConsoleAsset | undefined {
    return this.index;
  }

  asset(name: string): ConsoleAsset | undefined {
    return this.assets.get(name);
  }

  unavailableReason(): string {
    return this.failure ?? 'The web console is starting';
  }

  private load(paths: ConsolePaths): void {
    this.index = { body: fs.readFileSync(path.join(paths.out, 'index.html')), contentType: CONTENT_TYPES['.html'] };
    const dir = path.join(paths.out, 'assets');
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const contentType = CONTENT_TYPES[path.extname(name)];
      if (contentType) this.assets.set(name, { body: fs.readFileSync(path.join(dir, name)), contentType });
    }
  }
}
