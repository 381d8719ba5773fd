import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { Readiness, siblingModule, WorkerBudgetError, WorkerPool, WorkerQueueFullError } from '@vigil/platform';
import { SIGMA_BUDGET } from '@vigil/sigma';
import { evaluateUpload, type UploadEvaluation, type UploadEvaluationInput } from './upload-evaluation';

/** The upload's validation overran its time or memory budget: the upload is refused (400), nothing is stored. */
export class UploadBudgetError extends Error {
  override readonly name = 'UploadBudgetError';
  constructor(
    message: string,
    /** The file being validated when the budget ran out, when known. */
    readonly fileName: string | undefined,
  ) {
    super(message);
  }
}

/** A small upload the thread validates once at start-up, so the first real one finds the engine loaded and warm. */
const WARM_UP: UploadEvaluationInput = {
  ruleFiles: [
    {
      fileName: 'warm-up.yml',
      text: 'title: Warm-up\nid: 00000000-0000-4000-8000-000000000000\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|endswith: [.a.test, .b.test]\n  condition: sel\n',
    },
  ],
  placeholderFiles: [],
  mode: 'merge',
  existing: [],
  existingPlaceholders: {},
};

const READINESS = 'sigma-upload-validation';

/** Nest token: overrides of SIGMA_BUDGET.upload (tests). */
export const UPLOAD_VALIDATION_BUDGET = Symbol('UPLOAD_VALIDATION_BUDGET');
export type UploadValidationBudget = { -readonly [K in keyof typeof SIGMA_BUDGET.upload]: number };

/** Too many uploads are being validated at once (503). */
export class UploadValidationBusyError extends Error {
  override readonly name = 'UploadValidationBusyError';
}

/**
 * Runs {@link evaluateUpload} in a worker thread with the time and heap budget of SIGMA_BUDGET.upload, so a
 * rule that slips through every counted limit still costs the rules service (and whatever shares its process:
 * ingestion and scoring in the all-in-one) a bounded amount of time and memory. One thread; uploads of several
 * workspaces wait their turn (at most SIGMA_BUDGET.upload.maxQueued).
 */
@Injectable()
export class UploadValidator implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UploadValidator.name);
  private readonly budget: UploadValidationBudget;
  private readonly pool: WorkerPool<UploadEvaluationInput, UploadEvaluation>;

  constructor(
    @Optional() private readonly readiness?: Readiness,
    @Optional() @Inject(UPLOAD_VALIDATION_BUDGET) overrides: Partial<UploadValidationBudget> = {},
  ) {
    this.budget = { ...SIGMA_BUDGET.upload, ...overrides };
    this.readiness?.expect(READINESS);
    this.pool = new WorkerPool({
      name: 'Sigma upload validation',
      module: siblingModule(__filename, 'upload-evaluation'),
      exportName: 'evaluateUpload',
      timeoutMs: this.budget.timeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: this.budget.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: this.budget.maxYoungGenerationSizeMb },
      maxQueued: this.budget.maxQueued,
      idleTimeoutMs: 30 * 60_000,
    });
  }

  /**
   * The thread loads the Sigma engine ahead of the first upload and runs it once on a small rule; the service is
   * ready once it has, so the first upload does not wait for it. A thread that cannot start is logged (uploads
   * then fail) but does not hold the process's readiness back.
   */
  onApplicationBootstrap(): void {
    this.pool
      .warm(WARM_UP)
      .catch((error: unknown) => this.logger.error(`the upload validation thread did not start: ${String(error)}`))
      .finally(() => this.readiness?.ready(READINESS));
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }

  /**
   * @throws UploadBudgetError when the validation overran its budget; UploadValidationBusyError when too many
   * uploads wait.
   */
  async evaluate(input: UploadEvaluationInput): Promise<UploadEvaluation> {
    // Nothing to parse (every file was refused by the text screen, or none was sent): no thread needed.
    if (input.ruleFiles.length === 0 && input.placeholderFiles.length === 0) return evaluateUpload(input);
    try {
      return await this.pool.run(input);
    } catch (error) {
      if (error instanceof WorkerQueueFullError) throw new UploadValidationBusyError(`Sigma rule validation is busy; try again shortly (${error.message})`);
      if (!(error instanceof WorkerBudgetError)) throw error;
      const budget =
        error.budget === 'time'
          ? `its time budget of ${this.budget.timeoutMs} ms (SIGMA_BUDGET.upload.timeoutMs)`
          : `its memory budget of ${this.budget.maxOldGenerationSizeMb} MB of heap (SIGMA_BUDGET.upload.maxOldGenerationSizeMb)`;
      const where = error.progress === undefined ? '' : ` while checking ${error.progress}`;
      this.logger.warn(`upload validation stopped: it overran ${budget}${where}`);
      throw new UploadBudgetError(`Validating the archive overran ${budget}${where}`, error.progress);
    }
  }
}
