import { Controller, Get, HttpCode, HttpException, HttpStatus, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '@vigil/auth';
import type { CustomerRuleSummary, DetectionsBadRequestBody, DetectionsUploadResponse } from '@vigil/contracts';
import { CustomerRulesService, type UploadOutcome } from './customer-rules.service';
import { isZipContentType, parseUploadOptions, type UploadOptions } from './upload/upload-params';
import { UploadBudgetError, UploadValidationBusyError } from './upload/upload-validator';
import { ZipRejectedError } from './upload/zip-reader';

/**
 * POST /v1/detections: upload customer Sigma rules as a zip archive (spec), and GET /v1/detections: the
 * workspace's current customer rules (a Vigil extension).
 */
@Controller('v1/detections')
@UseGuards(ApiKeyGuard)
export class DetectionsController {
  constructor(private readonly rules: CustomerRulesService) {}

  @Post()
  @HttpCode(200)
  async upload(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DetectionsUploadResponse | DetectionsBadRequestBody> {
    // A 400 carries validationResult, which the global error filter (message only) would drop: answer it here.
    const refuse = (body: DetectionsBadRequestBody & { ignored?: string[] }) => {
      void reply.status(400);
      return body;
    };
    if (!isZipContentType(request.headers['content-type'])) {
      throw new HttpException({ message: `Content-Type must be application/zip, got ${JSON.stringify(request.headers['content-type'] ?? '')}` }, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }
    const options = parseUploadOptions(query);
    if (typeof options === 'string') return refuse(badRequest(options));
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (body.length === 0) return refuse(badRequest('The body is empty; send the zip archive of rule files'));

    let outcome: UploadOutcome;
    try {
      outcome = await this.rules.upload(principal.workspaceId, body, options);
    } catch (error) {
      if (error instanceof UploadValidationBusyError) {
        void reply.header('retry-after', '5');
        throw new HttpException({ message: error.message }, HttpStatus.SERVICE_UNAVAILABLE);
      }
      if (!(error instanceof ZipRejectedError) && !(error instanceof UploadBudgetError)) throw error;
      const errors = error.fileName === undefined ? [] : [{ fileName: error.fileName, error: error.message }];
      return refuse(badRequest(`${error.message}; nothing was stored`, { valid: 0, invalid: errors.length, errors }));
    }
    const ignored = outcome.ignored.length ? { ignored: outcome.ignored } : {};
    if (outcome.valid + outcome.invalid === 0 && outcome.placeholdersFile === undefined) {
      return refuse({ ...badRequest('The archive holds no .yml or .yaml rule file'), ...ignored });
    }
    if (outcome.invalid === 0) return { accepted: outcome.valid, ...ignored };
    return refuse({
      ...badRequest(refusalMessage(outcome, options), { valid: outcome.valid, invalid: outcome.invalid, errors: outcome.errors }),
      ...ignored,
    });
  }

  @Get()
  async list(@CurrentPrincipal() principal: Principal): Promise<{ rules: CustomerRuleSummary[] }> {
    return { rules: await this.rules.list(principal.workspaceId) };
  }
}

function badRequest(message: string, validationResult: DetectionsBadRequestBody['validationResult'] = { valid: 0, invalid: 0, errors: [] }): DetectionsBadRequestBody {
  return { message, validationResult };
}

function refusalMessage(outcome: UploadOutcome, options: UploadOptions): string {
  const invalid = `${outcome.invalid} rule${outcome.invalid === 1 ? '' : 's'} failed validation`;
  if (options.dryRun) return `${invalid}; ${outcome.valid} passed (dry run: nothing was stored)`;
  return `${invalid}; the ${outcome.valid} valid rule${outcome.valid === 1 ? ' was' : 's were'} stored`;
}
