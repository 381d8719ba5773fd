/** A destination that cannot be configured as given (the operator API answers 400 with the message). */
export class InvalidDestinationError extends Error {
  override readonly name = 'InvalidDestinationError';
}

type Json = Record<string, unknown>;

/**
 * Reads the fields of one JSON object of a request body, failing with a message that names the field's path.
 * Unknown fields are refused by {@link InputReader.done}, so a typo never silently drops a setting.
 */
export class InputReader {
  private readonly seen = new Set<string>();

  constructor(
    private readonly fields: Json,
    private readonly path: string,
  ) {}

  static of(value: unknown, path: string): InputReader {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidDestinationError(`${path} must be a JSON object`);
    return new InputReader(value as Json, path);
  }

  /** The path of this object in the body, e.g. `webhook`. */
  get location(): string {
    return this.path === '' ? 'the body' : this.path;
  }

  has(field: string): boolean {
    return this.fields[field] !== undefined;
  }

  fail(field: string, why: string): never {
    throw new InvalidDestinationError(`${this.name(field)} ${why}`);
  }

  name(field: string): string {
    return this.path === '' ? field : `${this.path}.${field}`;
  }

  raw(field: string): unknown {
    this.seen.add(field);
    return this.fields[field];
  }

  string(field: string, options: { max: number; min?: number; pattern?: RegExp; patternText?: string }): string | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') this.fail(field, 'must be a string');
    if (value.length < (options.min ?? 1)) this.fail(field, options.min === undefined || options.min <= 1 ? 'must not be empty' : `must be at least ${options.min} characters`);
    if (value.length > options.max) this.fail(field, `must be at most ${options.max} characters`);
    if (options.pattern && !options.pattern.test(value)) this.fail(field, `must be ${options.patternText ?? `of the form ${options.pattern}`}`);
    return value;
  }

  requiredString(field: string, options: { max: number; min?: number; pattern?: RegExp; patternText?: string }): string {
    const value = this.string(field, options);
    if (value === undefined) this.fail(field, 'is required');
    return value;
  }

  integer(field: string, min: number, max: number, fallback: number): number {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) this.fail(field, `must be a whole number from ${min} to ${max}`);
    return value as number;
  }

  boolean(field: string, fallback: boolean): boolean {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') this.fail(field, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) this.fail(field, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  object(field: string): InputReader | undefined {
    const value = this.raw(field);
    return value === undefined ? undefined : InputReader.of(value, this.name(field));
  }

  /** Refuses fields that were never read. */
  done(): void {
    const unknown = Object.keys(this.fields).filter((key) => !this.seen.has(key));
    if (unknown.length) throw new InvalidDestinationError(`${this.location} has unknown field(s): ${unknown.join(', ')}`);
  }
}
