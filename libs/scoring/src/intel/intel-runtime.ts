import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { IntelConfig, IntelListConfig } from '@vigil/config';
import { IndicatorStore, type IndicatorStoreOptions } from '@vigil/detection-engine';
import type { IntelFigures } from './intel-metrics';

export interface IntelRuntimeOptions extends IndicatorStoreOptions {
  /** Where warnings go; default a Nest Logger named `Intel`. */
  logger?: Pick<Logger, 'log' | 'warn'>;
}

/**
 * The scoring engine's threat intelligence: the committed seed plus the operator's lists
 * (`VIGIL_INTEL_LISTS`), re-read every `VIGIL_INTEL_REFRESH_SECONDS` without a restart. A list that cannot be
 * read keeps its previous content (or, never loaded, is retried on the next tick) and logs a warning; the
 * engine keeps scoring with what it has.
 */
export class IntelRuntime implements OnModuleDestroy {
  readonly store: IndicatorStore;
  private readonly logger: Pick<Logger, 'log' | 'warn'>;
  /** Lists not loaded yet (their first read failed); retried on every refresh. */
  private pending: IntelListConfig[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** List loads and refreshes that failed since start. */
  private failures = 0;

  private constructor(
    private readonly config: IntelConfig,
    options: IntelRuntimeOptions,
  ) {
    const { logger, ...storeOptions } = options;
    this.logger = logger ?? new Logger('Intel');
    const started = performance.now();
    this.store = new IndicatorStore(storeOptions);
    if (storeOptions.seed !== false) {
      this.logger.log(`intel seed: ${this.store.size} indicators in ${Math.round(performance.now() - started)} ms`);
    }
  }

  figures(): IntelFigures {
    return { indicators: this.store.size, failures: this.failures };
  }

  /** Loads the seed and every configured list, then starts the refresh timer (unless `refreshSeconds` is 0). */
  static async start(config: IntelConfig, options: IntelRuntimeOptions = {}): Promise<IntelRuntime> {
    const runtime = new IntelRuntime(config, options);
    runtime.pending = [...config.lists];
    await runtime.loadPending();
    if (config.refreshSeconds > 0) {
      runtime.timer = setInterval(() => void runtime.refresh(), config.refreshSeconds * 1000);
      runtime.timer.unref();
    }
    return runtime;
  }

  /** Re-reads the loaded lists and retries the pending ones. Never rejects; one refresh runs at a time. */
  refresh(): Promise<void> {
    this.running ??= this.refreshOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private async refreshOnce(): Promise<void> {
    try {
      const report = await this.store.refresh();
      for (const list of report.lists) {
        if (list.error !== undefined) {
          this.failures += 1;
          this.logger.warn(`intel list ${list.source}: refresh failed, keeping its previous content: ${list.error}`);
        }
      }
    } catch (error) {
      this.failures += 1;
      this.logger.warn(`intel refresh failed, keeping the previous indicators: ${(error as Error).message}`);
    }
    await this.loadPending();
  }

  private async loadPending(): Promise<void> {
    const still: IntelListConfig[] = [];
    for (const list of this.pending) {
      try {
        const summary = await this.store.loadList(list.source, list.format, { label: list.label, kind: list.kind, category: list.category });
        this.logger.log(`intel list ${list.source} (${list.format}) loaded; ${summary.skipped} lines skipped; ${this.store.size} indicators in all`);
      } catch (error) {
        this.failures += 1;
        still.push(list);
        this.logger.warn(`intel list ${list.source} (${list.format}) not loaded, retrying at the next refresh: ${(error as Error).message}`);
      }
    }
    this.pending = still;
  }
}
