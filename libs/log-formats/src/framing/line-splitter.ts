/** One text line and where it ends in the byte stream (just past its line break). */
export interface Line {
  text: string;
  /** Byte offset just after the line's `\n` (or after the last byte, for a final line without one). */
  end: number;
}

/**
 * Cuts a byte stream into lines, keeping exact byte offsets (the importer checkpoints by byte offset). Chunks may
 * split lines and multi-byte characters anywhere: bytes of an unfinished line are kept until its `\n` arrives.
 * `\r\n` endings lose their `\r`. Lines are decoded as UTF-8.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private offset: number;

  /** @param startOffset byte offset of the first byte that will be pushed */
  constructor(startOffset = 0) {
    this.offset = startOffset;
  }

  /** Byte offset just past the last complete line handed out. */
  get position(): number {
    return this.offset;
  }

  /** Bytes of an unfinished line held back. */
  get pendingLength(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      let bytes: Buffer;
      if (this.pending.length > 0) {
        this.pending.push(chunk.subarray(start, newline));
        bytes = Buffer.concat(this.pending);
        this.pending = [];
        this.pendingBytes = 0;
      } else {
        bytes = chunk.subarray(start, newline);
      }
      this.offset += bytes.length + 1;
      const length = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      lines.push({ text: bytes.toString('utf8', 0, length), end: this.offset });
      start = newline + 1;
    }
    if (start < chunk.length) {
      // Copied: callers may reuse their read buffer for the next chunk.
      this.pending.push(Buffer.from(chunk.subarray(start)));
      this.pendingBytes += chunk.length - start;
    }
    return lines;
  }

  /** The unfinished last line, as a line of its own (end of a file that does not end in `\n`). */
  flush(): Line | undefined {
    if (this.pendingBytes === 0) return undefined;
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.offset += bytes.length;
    const length = bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return { text: bytes.toString('utf8', 0, length), end: this.offset };
  }
}
