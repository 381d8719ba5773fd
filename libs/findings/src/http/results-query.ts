import { BadRequestException } from '@nestjs/common';
import type { Principal } from '@vigil/auth';
import { encodeBookmark } from '../bookmark';
import { InvalidQueryError } from '../errors';
import { parseMaxAge, type ResultKind } from '../max-age';
import type { RawPage, RecordRepository } from '../record-repository';

/** Records per page of GET /v1/findings and GET /v1/alerts (the repository also caps a page's bytes). */
export const PAGE_SIZE = 1000;

export interface ResultsQueryParams {
  follow?: string;
  maxAge?: string;
  minSeverity?: string;
}

/** 1–5, or undefined when absent; anything else, an empty value included, is a 400 (as the OpenAPI document says). */
function parseMinSeverity(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-5]$/.test(value)) throw new BadRequestException({ message: `minSeverity must be a whole number from 1 to 5, got ${JSON.stringify(value)}` });
  return Number(value);
}

function singleValue(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  throw new BadRequestException({ message: `${name} must be given once` });
}

/**
 * One page of a workspace's findings or alerts for a request, items as their stored JSON texts. While the key
 * is not activated the page is empty and the bookmark does not move, so nothing is lost once it is activated.
 */
export async function pageFor(
  repository: RecordRepository<unknown, unknown>,
  kind: ResultKind,
  principal: Principal,
  query: Record<string, unknown>,
): Promise<RawPage> {
  const follow = singleValue(query.follow, 'follow');
  const maxAge = singleValue(query.maxAge, 'maxAge');
  const minSeverity = parseMinSeverity(singleValue(query.minSeverity, 'minSeverity'));
  let maxAgeSeconds: number;
  try {
    maxAgeSeconds = parseMaxAge(maxAge, kind);
  } catch (error) {
    if (error instanceof InvalidQueryError) throw new BadRequestException({ message: error.message });
    throw error;
  }
  if (!principal.registered) {
    return { bodies: [], more: false, bookmark: follow && follow !== '0' && follow !== 'undefined' ? follow : encodeBookmark({ insertedAtUs: '0', recordId: '' }) };
  }
  return repository.pageRaw({ workspaceId: principal.workspaceId, bookmark: follow, maxAgeSeconds, limit: PAGE_SIZE, minSeverity });
}

const COMMA = Buffer.from(',');

/**
 * `{"follow":…,"more":…,"<list>":[<items>]<tail>}` with the items' stored JSON spliced in: the bytes
 * JSON.stringify would give for the parsed items, without parsing or serialising them.
 */
export function pageJson(page: RawPage, listName: string, tail = ''): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"follow":${JSON.stringify(page.bookmark)},"more":${page.more},${JSON.stringify(listName)}:[`)];
  page.bodies.forEach((body, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(body);
  });
  parts.push(Buffer.from(`]${tail}}`));
  return Buffer.concat(parts);
}
