import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';

/** Limits of a rule archive (spec: Limits). Sizes are decompressed bytes. */
export interface ZipLimits {
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const RULE_ZIP_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
};

/** The whole archive is refused (nothing of it is used); `fileName` names the entry at fault when there is one. */
export class ZipRejectedError extends Error {
  override readonly name = 'ZipRejectedError';
  constructor(
    message: string,
    readonly fileName?: string,
  ) {
    super(message);
  }
}

export interface ZipRuleFile {
  fileName: string;
  text: string;
}

export interface RuleZipContents {
  /** `.yml`/`.yaml` entries, in archive order. */
  files: ZipRuleFile[];
  /** Other file entries (not read). Directory entries are neither. */
  ignored: string[];
}

const RULE_FILE = /\.ya?ml$/i;

/** Why an entry name is unsafe, or undefined. Checked on the raw name, before yauzl's own checks. */
export function unsafeEntryName(name: string): string | undefined {
  if (name.length === 0) return 'empty file name';
  if (name.includes('\u0000')) return `file name ${JSON.stringify(name)} contains a NUL character`;
  if (name.includes('\\')) return `file name ${JSON.stringify(name)} contains a backslash`;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return `absolute path ${JSON.stringify(name)} is not allowed`;
  if (name.split('/').includes('..')) return `path traversal in ${JSON.stringify(name)} is not allowed`;
  return undefined;
}

/**
 * Reads the rule files of a zip archive held in memory, entry by entry, enforcing every limit while reading:
 * the entry count from the central directory before anything is inflated, each rule file's declared size
 * before it is opened and its real size while it inflates (a lying header is caught after at most one byte
 * too many), and the running total. Only rule files are inflated.
 * @throws ZipRejectedError for a corrupt or truncated archive, an unsafe or repeated name, or a limit exceeded.
 */
export async function readRuleZip(buffer: Buffer, limits: ZipLimits = RULE_ZIP_LIMITS): Promise<RuleZipContents> {
  if (buffer.length < 4 || buffer.readUInt32LE(0) !== 0x04034b50) {
    if (buffer.length >= 4 && buffer.readUInt32LE(0) === 0x06054b50) return { files: [], ignored: [] };
    throw new ZipRejectedError('The body is not a zip archive (no local file header signature at its start)');
  }
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(buffer);
  } catch (error) {
    throw new ZipRejectedError(`The zip archive is corrupt or truncated: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ZipRejectedError(`The archive holds ${zip.entryCount} entries; the limit is ${limits.maxEntries}`);
    }
    return await readEntries(zip, limits);
  } finally {
    zip.close();
  }
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: names are validated here with our own messages; validateEntrySizes on.
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

function readEntries(zip: yauzl.ZipFile, limits: ZipLimits): Promise<RuleZipContents> {
  return new Promise((resolve, reject) => {
    const contents: RuleZipContents = { files: [], ignored: [] };
    const names = new Set<string>();
    let total = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error instanceof ZipRejectedError ? error : new ZipRejectedError(`The zip archive is corrupt or truncated: ${error.message}`));
    };

    zip.on('error', fail);
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(contents);
    });
    zip.on('entry', (entry: yauzl.Entry) => {
      if (settled) return;
      const raw = entry.fileName as unknown as Buffer;
      const isUtf8 = (entry.generalPurposeBitFlag & 0x800) !== 0;
      const fileName = isUtf8 ? raw.toString('utf8') : raw.toString('latin1');
      const unsafe = unsafeEntryName(fileName);
      if (unsafe) return fail(new ZipRejectedError(`Unsafe entry in the archive: ${unsafe}`, fileName));
      // Two entries of one name: which one would be the rule is up to the reader, so neither is.
      if (names.has(fileName)) return fail(new ZipRejectedError(`The archive holds more than one entry named ${JSON.stringify(fileName)}`, fileName));
      names.add(fileName);
      if (fileName.endsWith('/')) return zip.readEntry();
      if (!RULE_FILE.test(fileName)) {
        contents.ignored.push(fileName);
        return zip.readEntry();
      }
      if (entry.uncompressedSize > limits.maxFileBytes) {
        return fail(new ZipRejectedError(`Rule file ${fileName} is ${entry.uncompressedSize} bytes; the limit is ${limits.maxFileBytes} bytes per rule file`, fileName));
      }
      if (total + entry.uncompressedSize > limits.maxTotalBytes) {
        return fail(new ZipRejectedError(`The rule files decompress to more than ${limits.maxTotalBytes} bytes in total`, fileName));
      }
      if (entry.isEncrypted()) return fail(new ZipRejectedError(`Rule file ${fileName} is encrypted`, fileName));
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        return fail(new ZipRejectedError(`Rule file ${fileName} uses compression method ${entry.compressionMethod}; only stored and deflate are supported`, fileName));
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error) return fail(error);
        readCapped(stream, fileName, Math.min(limits.maxFileBytes, limits.maxTotalBytes - total)).then(
          (bytes) => {
            total += bytes.length;
            contents.files.push({ fileName, text: bytes.toString('utf8') });
            zip.readEntry();
          },
          (err: Error) => fail(err),
        );
      });
    });
    zip.readEntry();
  });
}

/** Collects a stream, destroying it as soon as it yields more than `cap` bytes. */
function readCapped(stream: Readable, fileName: string, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > cap) {
        stream.destroy();
        reject(new ZipRejectedError(`Rule file ${fileName} inflates past its limit of ${cap} bytes (its header understates its size)`, fileName));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error: Error) =>
      reject(new ZipRejectedError(`Rule file ${fileName} is corrupt: ${error.message}`, fileName)),
    );
    stream.on('end', () => resolve(Buffer.concat(chunks, length)));
  });
}
