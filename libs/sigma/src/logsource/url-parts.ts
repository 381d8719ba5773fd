import type { EventView } from '../match/event-view';
import { derivedSlot } from '../match/field-registry';

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isSchemeChar(c: number): boolean {
  return isAlpha(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46; // + - .
}

/** Length of a leading `scheme://`, 0 when the URL has none. */
function schemeLength(url: string): number {
  if (url.length === 0 || !isAlpha(url.charCodeAt(0))) return 0;
  let i = 1;
  while (i < url.length && isSchemeChar(url.charCodeAt(i))) i++;
  return url.startsWith('://', i) ? i + 3 : 0;
}

/**
 * The parts of a request URL Sigma web fields address. Works on absolute URLs and on bare paths.
 * Parsing only finds offsets; each part's string is cut on first use, so a caller that only
 * needs positions (the pre-filter scanning the URL once for all its parts) allocates nothing.
 */
export class UrlParts {
  /** Host without user info and port: [hostStart, hostEnd) of the URL; hostStart -1 without one. */
  readonly hostStart: number = -1;
  readonly hostEnd: number = -1;
  /** Path: [pathStart, pathEnd); empty for an absolute URL without one, whose path reads '/'. */
  readonly pathStart: number;
  readonly pathEnd: number;
  /** Query without '?': [queryStart, queryEnd); queryStart -1 when the URL has none. */
  readonly queryStart: number = -1;
  readonly queryEnd: number = -1;
  private hostText?: string | null;
  private pathText?: string;
  private queryText?: string | null;

  constructor(readonly url: string) {
    let from = 0;
    const scheme = schemeLength(url);
    if (scheme) {
      let end = scheme;
      while (end < url.length) {
        const c = url.charCodeAt(end);
        if (c === 47 || c === 63 || c === 35) break; // / ? #
        end++;
      }
      const at = url.indexOf('@', scheme);
      const start = at !== -1 && at < end ? at + 1 : scheme;
      let stop = end;
      while (stop > start && url.charCodeAt(stop - 1) >= 48 && url.charCodeAt(stop - 1) <= 57) stop--;
      stop = stop > start && url.charCodeAt(stop - 1) === 58 ? stop - 1 : end; // ':' then digits (or none) to the end is a port
      if (stop > start) {
        this.hostStart = start;
        this.hostEnd = stop;
      }
      from = end;
    }
    const hash = url.indexOf('#', from);
    const stop = hash === -1 ? url.length : hash;
    const q = url.indexOf('?', from);
    this.pathStart = from;
    if (q !== -1 && q < stop) {
      this.pathEnd = q;
      this.queryStart = q + 1;
      this.queryEnd = stop;
    } else this.pathEnd = stop;
  }

  get host(): string | undefined {
    if (this.hostText === undefined) this.hostText = this.hostStart === -1 ? null : this.url.slice(this.hostStart, this.hostEnd).toLowerCase();
    return this.hostText ?? undefined;
  }

  get path(): string {
    if (this.pathText === undefined) this.pathText = this.url.slice(this.pathStart, this.pathEnd) || (this.hostStart !== -1 ? '/' : '');
    return this.pathText;
  }

  get query(): string | undefined {
    if (this.queryText === undefined) this.queryText = this.queryStart === -1 ? null : this.url.slice(this.queryStart, this.queryEnd);
    return this.queryText ?? undefined;
  }

  /** Whether the path reads as '/' although the URL has none (then it is not a slice of the URL). */
  get pathImplied(): boolean {
    return this.pathStart === this.pathEnd && this.hostStart !== -1;
  }
}

export function splitUrl(url: string): UrlParts {
  return new UrlParts(url);
}

const URL_SLOT = derivedSlot();
const parseEventUrl = (event: Record<string, unknown>): UrlParts | undefined => (typeof event.url === 'string' ? new UrlParts(event.url) : undefined);

/** URL parts of an HTTP event, parsed once per event view. */
export function urlPartsOf(view: EventView): UrlParts | undefined {
  return view.derive(URL_SLOT, parseEventUrl);
}
