import { bindQueryEvent } from './bind/bind-query-log';
import { gcpCloudDnsEvent } from './cloud/gcp-cloud-dns';
import { route53ResolverEvent } from './cloud/route53-resolver';
import type { LogFormat } from './formats';
import { JsonRecordScanner } from './framing/json-records';
import { rejected, skipped, type RecordOutcome } from './outcome';
import { suricataEveEvents } from './suricata/eve';
import { CertificateIndex } from './zeek/certificate-index';
import { zeekConnEvent } from './zeek/conn';
import { zeekDhcpEvent } from './zeek/dhcp';
import { zeekDnsEvent } from './zeek/dns';
import { zeekHttpEvent } from './zeek/http';
import { zeekSslEvent } from './zeek/ssl';
import { ZeekTsvReader, type ZeekTsvHeader } from './zeek/tsv-reader';
import { zeekX509Certificate } from './zeek/x509';
import type { ZeekPath, ZeekRecord } from './zeek/zeek-record';

/** What a parser needs to carry on after a line boundary in a later run (JSON-safe). */
export interface LogParserState {
  zeekHeader?: ZeekTsvHeader;
}

export interface LogParserOptions {
  /** x509 certificates for ssl.log (filled by x509.log parsers sharing the same index). */
  certificates?: CertificateIndex;
  /** Reference time for BIND syslog-prefixed lines without a year. */
  now?: Date;
  /** Resume state saved from an earlier parser of the same file ({@link LogParser.state}). */
  state?: LogParserState;
}

/**
 * Turns a log's lines into record outcomes, one format per parser. Lines are fed in order without their line
 * breaks; a line gives zero or more outcomes (header lines none, a JSON record spread over lines one at its end).
 */
export interface LogParser {
  readonly format: LogFormat;
  line(text: string): RecordOutcome[];
  /** End of input: a record left unfinished is rejected. */
  finish(): RecordOutcome[];
  /** True between records (a batch may end here and a later run may resume here). */
  readonly idle: boolean;
  state(): LogParserState;
}

export function createLogParser(format: LogFormat, options: LogParserOptions = {}): LogParser {
  switch (format) {
    case 'suricata-eve':
      return new JsonLinesLogParser(format, suricataEveEvents);
    case 'route53-resolver':
      return new JsonLogParser(format, route53ResolverEvent);
    case 'gcp-cloud-dns':
      return new JsonLogParser(format, gcpCloudDnsEvent);
    case 'bind-query': {
      const now = options.now ?? new Date();
      return new LineLogParser(format, (line) => bindQueryEvent(line, now));
    }
    default:
      return new ZeekLogParser(format, options);
  }
}

class JsonLogParser implements LogParser {
  private readonly scanner = new JsonRecordScanner();

  constructor(
    readonly format: LogFormat,
    private readonly map: (record: Record<string, unknown>) => RecordOutcome,
  ) {}

  get idle(): boolean {
    return this.scanner.idle;
  }

  line(text: string): RecordOutcome[] {
    return this.scanner.line(text).map((record) => (record.ok ? this.map(record.value) : rejected(record.reason)));
  }

  finish(): RecordOutcome[] {
    return this.scanner.finish().map((record) => rejected(record.ok ? 'invalid_json' : record.reason));
  }

  state(): LogParserState {
    return {};
  }
}

/** Suricata writes one object per line (optionally after syslog's `@cee:` cookie): each line stands alone. */
class JsonLinesLogParser implements LogParser {
  readonly idle = true;

  constructor(
    readonly format: LogFormat,
    private readonly map: (record: Record<string, unknown>) => RecordOutcome,
  ) {}

  line(text: string): RecordOutcome[] {
    const start = text.indexOf('{');
    if (start === -1) return text.trim().length === 0 ? [] : [rejected('invalid_json')];
    let value: unknown;
    try {
      value = JSON.parse(start === 0 ? text : text.slice(start));
    } catch {
      return [rejected('invalid_json')];
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [rejected('not_an_object')];
    return [this.map(value as Record<string, unknown>)];
  }

  finish(): RecordOutcome[] {
    return [];
  }

  state(): LogParserState {
    return {};
  }
}

class LineLogParser implements LogParser {
  readonly idle = true;

  constructor(
    readonly format: LogFormat,
    private readonly map: (line: string) => RecordOutcome,
  ) {}

  line(text: string): RecordOutcome[] {
    return text.trim().length === 0 ? [] : [this.map(text)];
  }

  finish(): RecordOutcome[] {
    return [];
  }

  state(): LogParserState {
    return {};
  }
}

/** Zeek logs, TSV (header lines first) or JSON (one object per line), mapped by the log type of the format. */
class ZeekLogParser implements LogParser {
  readonly idle = true;
  private readonly tsv: ZeekTsvReader;
  private readonly map: (record: ZeekRecord) => RecordOutcome;

  constructor(
    readonly format: LogFormat,
    options: LogParserOptions,
  ) {
    this.tsv = new ZeekTsvReader(options.state?.zeekHeader);
    const path = format.slice('zeek-'.length) as ZeekPath;
    const certificates = options.certificates ?? new CertificateIndex();
    this.map = path === 'x509' ? (record) => indexCertificate(record, certificates) : path === 'ssl' ? (record) => zeekSslEvent(record, certificates) : ZEEK_MAPPERS[path];
  }

  line(text: string): RecordOutcome[] {
    if (text.length === 0) return [];
    if (text.charCodeAt(0) === 0x7b /* { */) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return [rejected('invalid_json')];
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [rejected('not_an_object')];
      return [this.map(value as ZeekRecord)];
    }
    const line = this.tsv.line(text);
    if (line.kind === 'header') return [];
    return [line.kind === 'record' ? this.map(line.record) : rejected(line.reason)];
  }

  finish(): RecordOutcome[] {
    return [];
  }

  state(): LogParserState {
    return { zeekHeader: this.tsv.state };
  }
}

const ZEEK_MAPPERS: Readonly<Record<Exclude<ZeekPath, 'x509' | 'ssl'>, (record: ZeekRecord) => RecordOutcome>> = {
  conn: zeekConnEvent,
  dns: zeekDnsEvent,
  http: zeekHttpEvent,
  dhcp: zeekDhcpEvent,
};

function indexCertificate(record: ZeekRecord, certificates: CertificateIndex): RecordOutcome {
  const certificate = zeekX509Certificate(record);
  if ('kind' in certificate) return certificate;
  certificates.add(certificate.keys, certificate.details);
  return skipped('x509_certificate_indexed');
}
