/**
 * A reader of ClickHouse's RowBinary output: the page query's rows arrive without any text escaping, so a
 * stored body can be served as the bytes it was stored as, without JSON parsing or serialising it again.
 */
export class RowBinaryReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  get done(): boolean {
    return this.offset >= this.buffer.length;
  }

  /** Int64, as a decimal string (epoch microseconds exceed the integers a number keeps exactly). */
  int64(): string {
    this.need(8);
    const value = this.buffer.readBigInt64LE(this.offset);
    this.offset += 8;
    return value.toString();
  }

  /** String, as the bytes stored (a view into the buffer, not a copy). */
  bytes(): Buffer {
    const length = this.varUInt();
    this.need(length);
    const value = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  private varUInt(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      this.need(1);
      const byte = this.buffer[this.offset++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new RangeError('RowBinary: string length over 2^35 bytes');
  }

  private need(length: number): void {
    if (this.offset + length > this.buffer.length) throw new RangeError('RowBinary: row truncated');
  }
}
