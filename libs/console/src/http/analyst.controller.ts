import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type { Principal } from '@vigil/auth';
import type { CustomerRuleSummary, OcsfDetectionFinding } from '@vigil/contracts';
import { DnsExplainer, formatExplanation, IndicatorStore, type DnsNameExplanation } from '@vigil/detection-engine';
import { FindingsStoreService, InvalidQueryError, parseMaxAge } from '@vigil/findings';
import { withDomainErrors, type DomainErrorStatus } from '@vigil/platform';
import { STORE_FACTORY, type ServiceStore, type StoreFactory } from '@vigil/store';
import { eventsPerHour, TELEMETRY_MIGRATIONS } from '@vigil/telemetry-archive';
import { summarise, type Overview } from '../findings-overview';
import { ConsoleRules, type AnalystIdentity } from '../remote/console-rules';
import { ConsoleGuard, ConsoleRoleRequired, type ConsoleRequest } from './console.guard';
import { serviceOf } from './optional-service';

/** Bad paging input answers 400. */
const QUERY_ERRORS: DomainErrorStatus[] = [[InvalidQueryError, 400]];
/** Findings per call of the explorer (one page of the findings repository, after the API's bookmark). */
const EXPLORER_PAGE = 500;
/** The overview counts at most this many findings of the last day. */
const OVERVIEW_LIMIT = 5000;
/** base64 of a zip under the 10 MB JSON body limit. */
const MAX_ZIP_BASE64 = 9 * 1024 * 1024;
const DOMAIN_NAME = /^[A-Za-z0-9_.-]{1,253}$/;

/** Analysts: their workspace's findings, rules, the explain tool and the dictionaries, through the existing services. */
@Controller('console/api')
@UseGuards(ConsoleGuard)
@ConsoleRoleRequired('analyst')
export class ConsoleAnalystController {
  private explainer?: DnsExplainer;
  private archive?: Promise<ServiceStore>;

  constructor(
    private readonly modules: ModuleRef,
    private readonly rulesService: ConsoleRules,
  ) {}

  /** One page of findings after `follow` (the findings API's bookmark), with the bookmark to continue from. */
  @Get('findings')
  async findings(@Req() request: ConsoleRequest, @Query() query: Record<string, unknown>) {
    const principal = request.consolePrincipal!;
    const follow = typeof query.follow === 'string' && query.follow !== '' ? query.follow : undefined;
    const maxAgeSeconds = maxAge(query.maxAge);
    if (!principal.registered) return { records: [], follow: follow ?? '', more: false, scanned: 0, withheld: true };
    const page = await this.page(principal, follow, maxAgeSeconds, EXPLORER_PAGE);
    return { records: page.items, follow: page.bookmark, more: page.more, scanned: page.items.length };
  }

  /** Events per hour over the last day from the telemetry archive (hosted with the findings; none without it). */
  private async ingestPerHour(workspaceId: string): Promise<Overview['ingestPerHour']> {
    let factory: StoreFactory;
    try {
      factory = this.modules.get<StoreFactory>(STORE_FACTORY, { strict: false });
    } catch {
      return []; // no store in this process
    }
    this.archive ??= factory.open('telemetry', TELEMETRY_MIGRATIONS);
    return eventsPerHour(await this.archive, workspaceId, Date.now() - 86_400_000);
  }

  /** One page of alerts (legacy view) after `follow`, the alerts API's bookmark. */
  @Get('alerts')
  async alerts(@Req() request: ConsoleRequest, @Query() query: Record<string, unknown>) {
    const principal = request.consolePrincipal!;
    const follow = typeof query.follow === 'string' && query.follow !== '' ? query.follow : undefined;
    const maxAgeSeconds = maxAge(query.maxAge, 'alerts');
    if (!principal.registered) return { alerts: [], follow: follow ?? '', more: false, withheld: true };
    const stores = serviceOf(this.modules, FindingsStoreService, 'findings-api');
    const page = await withDomainErrors(QUERY_ERRORS, () => stores.alerts.page({ workspaceId: principal.workspaceId, bookmark: follow, maxAgeSeconds, limit: EXPLORER_PAGE }));
    return { alerts: page.items, follow: page.bookmark, more: page.more };
  }

  @Get('overview')
  async overview(@Req() request: ConsoleRequest): Promise<Overview> {
    const principal = request.consolePrincipal!;
    if (!principal.registered) return summarise([], false);
    const all: OcsfDetectionFinding[] = [];
    let follow: string | undefined;
    let more = true;
    while (more && all.length < OVERVIEW_LIMIT) {
      const page = await this.page(principal, follow, 86400, 1000);
      all.push(...page.items);
      follow = page.bookmark;
      more = page.more && page.items.length > 0;
    }
    return summarise(all, more, await this.ingestPerHour(principal.workspaceId));
  }

  @Get('rules')
  async rules(@Req() request: ConsoleRequest): Promise<{ rules: CustomerRuleSummary[] }> {
    return { rules: await this.rulesService.list(analystOf(request)) };
  }

  /** Upload of a rule archive (base64 in JSON), answered as POST /v1/detections answers. */
  @Post('rules')
  @HttpCode(200)
  async upload(@Req() request: ConsoleRequest, @Body() body: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const zip = body?.zip;
    if (typeof zip !== 'string' || zip.length === 0 || zip.length > MAX_ZIP_BASE64 || !/^[A-Za-z0-9+/]*={0,2}$/.test(zip)) {
      throw new BadRequestException({ message: `zip must be the archive in base64 (at most ${MAX_ZIP_BASE64} characters)` });
    }
    const mode = body.mode ?? 'merge';
    if (mode !== 'merge' && mode !== 'replace') throw new BadRequestException({ message: 'mode must be "merge" or "replace"' });
    const answer = await this.rulesService.upload(analystOf(request), { zip: Buffer.from(zip, 'base64'), mode, dryRun: body.dryRun === true });
    void reply.status(answer.status);
    return answer.body;
  }

  /** Deletes one stored rule of the workspace. */
  @Post('rules/delete')
  @HttpCode(200)
  async deleteRule(@Req() request: ConsoleRequest, @Body() body: Record<string, unknown>): Promise<{ deleted: string[] }> {
    const id = body?.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 256) throw new BadRequestException({ message: 'id must be the id of a stored rule' });
    return { deleted: await this.rulesService.remove(analystOf(request), id) };
  }

  @Post('explain')
  @HttpCode(200)
  explain(@Body() body: Record<string, unknown>): { explanation: DnsNameExplanation; text: string } {
    const name = body?.name;
    if (typeof name !== 'string' || !DOMAIN_NAME.test(name.trim().replace(/\.$/, ''))) {
      throw new BadRequestException({ message: 'name must be a domain name (letters, digits, "-", "_" and dots; at most 253 characters)' });
    }
    this.explainer ??= new DnsExplainer(new IndicatorStore());
    const explanation = this.explainer.explain(name);
    return { explanation, text: formatExplanation(explanation) };
  }

  @Get('dictionaries')
  dictionaries(@Req() request: ConsoleRequest) {
    return this.rulesService.dictionaries(analystOf(request));
  }

  private async page(principal: Principal, follow: string | undefined, maxAgeSeconds: number, limit: number) {
    const stores = serviceOf(this.modules, FindingsStoreService, 'findings-api');
    return withDomainErrors(QUERY_ERRORS, () => stores.findings.page({ workspaceId: principal.workspaceId, bookmark: follow, maxAgeSeconds, limit }));
  }
}

/** The signed-in analyst: their workspace and the key they signed in with (the rules service is called with it). */
function analystOf(request: ConsoleRequest): AnalystIdentity {
  return { workspaceId: request.consolePrincipal!.workspaceId, apiKey: request.consoleSession!.apiKey ?? '' };
}

/** The maxAge parameter in the findings API's grammar; a bad one answers 400. */
function maxAge(value: unknown, kind: 'findings' | 'alerts' = 'findings'): number {
  return withDomainErrors(QUERY_ERRORS, () => parseMaxAge(typeof value === 'string' ? value : undefined, kind));
}
