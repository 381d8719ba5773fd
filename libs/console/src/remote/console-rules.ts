import { HttpException, HttpStatus, Inject, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import type { CustomerRuleSummary, FlagDictionary, ThreatDictionary } from '@vigil/contracts';
import { CustomerRulesService, InventoryService, UploadBudgetError, UploadValidationBusyError, ZipRejectedError } from '@vigil/rules';
import { operatorTokenOf } from './operator-token';
import { callService, unexpectedAnswer, type ServiceResponse } from './service-http';

/** The rules service refusing the analyst's own key (revoked or expired since the last check) is their 401/403. */
const ANALYST_KEY_REFUSED = [401, 403];

/** Who asks: the analyst's workspace (in-process calls) and their own API key (calls to the rules service). */
export interface AnalystIdentity {
  workspaceId: string;
  apiKey: string;
}

export interface UploadRequest {
  zip: Buffer;
  mode: 'merge' | 'replace';
  dryRun: boolean;
}

/** The answer of an upload, as POST /v1/detections gives it: 200 with `accepted`, 400 with `validationResult`. */
export interface UploadAnswer {
  status: 200 | 400;
  body: Record<string, unknown>;
}

/**
 * The rules service as the console's analyst pages use it: the services of this process when the rules service
 * runs here (all-in-one), else its public API at VIGIL_RULES_URL, called with the analyst's own API key, so the
 * rules service applies its own checks and workspace (deleting one rule excepted: see remove()).
 */
@Injectable()
export class ConsoleRules {
  constructor(
    private readonly modules: ModuleRef,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async list(analyst: AnalystIdentity): Promise<CustomerRuleSummary[]> {
    const local = this.local(CustomerRulesService);
    if (local) return local.list(analyst.workspaceId);
    const answer = await this.remote(analyst, 'GET', '/v1/detections');
    if (answer.status !== 200) throw unexpectedAnswer('rules', answer, ANALYST_KEY_REFUSED);
    return (answer.body as { rules: CustomerRuleSummary[] }).rules;
  }

  async upload(analyst: AnalystIdentity, request: UploadRequest): Promise<UploadAnswer> {
    const local = this.local(CustomerRulesService);
    if (local) return uploadInProcess(local, analyst.workspaceId, request);
    const query = `?import_mode=${request.mode}&dry_run=${request.dryRun}`;
    const answer = await this.remote(analyst, 'POST', `/v1/detections${query}`, { 'content-type': 'application/zip' }, request.zip);
    if (answer.status === 200 || answer.status === 400) return { status: answer.status, body: answer.body as Record<string, unknown> };
    if (answer.status === 503) throw new HttpException({ message: (answer.body as { message?: string }).message ?? 'The rules service is busy' }, HttpStatus.SERVICE_UNAVAILABLE);
    throw unexpectedAnswer('rules', answer, ANALYST_KEY_REFUSED);
  }

  /**
   * Deletes one stored rule of the analyst's own workspace. The rules service's public API cannot, so a split
   * deployment uses its operator route, with the operator token, for the workspace of the console session only.
   */
  async remove(analyst: AnalystIdentity, id: string): Promise<string[]> {
    const local = this.local(CustomerRulesService);
    if (local) {
      const deleted = await local.remove(analyst.workspaceId, [id]);
      if (deleted.length === 0) throw new NotFoundException({ message: `No stored rule has the id ${JSON.stringify(id)}` });
      return deleted;
    }
    const path = `/admin/v1/workspaces/${encodeURIComponent(analyst.workspaceId)}/rules/${encodeURIComponent(id)}`;
    const answer = await callService('rules', this.rulesUrl(), 'DELETE', path, { headers: { authorization: `Bearer ${operatorTokenOf(this.config)}` } });
    if (answer.status === 404) throw new NotFoundException({ message: `No stored rule has the id ${JSON.stringify(id)}` });
    if (answer.status !== 200) throw unexpectedAnswer('rules', answer);
    return (answer.body as { deleted: string[] }).deleted;
  }

  async dictionaries(analyst: AnalystIdentity): Promise<{ threats: ThreatDictionary; flags: FlagDictionary }> {
    const local = this.local(InventoryService);
    if (local) return { threats: local.threats(), flags: local.flags() };
    const [threats, flags] = await Promise.all([this.remote(analyst, 'GET', '/v1/ae/inventory/threats'), this.remote(analyst, 'GET', '/v1/ae/inventory/flags')]);
    if (threats.status !== 200) throw unexpectedAnswer('rules', threats, ANALYST_KEY_REFUSED);
    if (flags.status !== 200) throw unexpectedAnswer('rules', flags, ANALYST_KEY_REFUSED);
    return { threats: (threats.body as { threats: ThreatDictionary }).threats, flags: (flags.body as { flags: FlagDictionary }).flags };
  }

  private local<T>(type: new (...args: never[]) => T): T | undefined {
    try {
      return this.modules.get(type, { strict: false });
    } catch {
      return undefined;
    }
  }

  private remote(analyst: AnalystIdentity, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<ServiceResponse> {
    const authorization = `Basic ${Buffer.from(`${analyst.apiKey}:`).toString('base64')}`;
    return callService('rules', this.rulesUrl(), method, path, { headers: { ...headers, authorization }, body });
  }

  private rulesUrl(): string {
    const baseUrl = this.config.remoteServices?.rulesUrl;
    if (!baseUrl) throw new ServiceUnavailableException({ message: 'This needs the rules service: it does not run in this process and VIGIL_RULES_URL is not set' });
    return baseUrl;
  }
}

async function uploadInProcess(rules: CustomerRulesService, workspaceId: string, request: UploadRequest): Promise<UploadAnswer> {
  const refuse = (message: string, errors: { fileName: string; error: string }[] = [], valid = 0): UploadAnswer => ({
    status: 400,
    body: { message, validationResult: { valid, invalid: errors.length, errors } },
  });
  try {
    const outcome = await rules.upload(workspaceId, request.zip, { mode: request.mode, dryRun: request.dryRun });
    if (outcome.valid + outcome.invalid === 0 && outcome.placeholdersFile === undefined) return refuse('The archive holds no .yml or .yaml rule file');
    if (outcome.invalid === 0) return { status: 200, body: { accepted: outcome.valid, ...(outcome.ignored.length ? { ignored: outcome.ignored } : {}) } };
    const stored = request.dryRun ? 'dry run: nothing was stored' : `the ${outcome.valid} valid rule(s) were stored`;
    return refuse(`${outcome.invalid} rule(s) failed validation; ${stored}`, outcome.errors, outcome.valid);
  } catch (error) {
    if (error instanceof UploadValidationBusyError) throw new HttpException({ message: error.message }, HttpStatus.SERVICE_UNAVAILABLE);
    if (error instanceof ZipRejectedError || error instanceof UploadBudgetError) {
      return refuse(`${error.message}; nothing was stored`, error.fileName === undefined ? [] : [{ fileName: error.fileName, error: error.message }]);
    }
    throw error;
  }
}
