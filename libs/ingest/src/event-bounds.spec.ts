import { eventBoundViolation, MAX_EVENT_DEPTH, MAX_EVENT_FIELDS, MAX_EVENT_STRING_LENGTH } from './event-bounds';

const nestedArrays = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('eventBoundViolation', () => {
  it.each<[string, Record<string, unknown>, string | undefined]>([
    ['a flat event', { ts: 1, query: 'a.example', qtype: 'A' }, undefined],
    ['an empty event', {}, undefined],
    [`nesting of exactly ${MAX_EVENT_DEPTH} levels`, { x: nestedArrays(MAX_EVENT_DEPTH - 1) }, undefined],
    [`nesting of ${MAX_EVENT_DEPTH + 1} levels`, { x: nestedArrays(MAX_EVENT_DEPTH) }, 'too_deep'],
    ['an object nested in an array nested in an object', { x: [{ y: [{}] }] }, undefined],
    [`exactly ${MAX_EVENT_FIELDS} values`, { a: Array(MAX_EVENT_FIELDS - 1).fill(null) }, undefined],
    [`${MAX_EVENT_FIELDS + 1} values`, { a: Array(MAX_EVENT_FIELDS - 1).fill(null), b: 1 }, 'too_many_fields'],
    ['members of nested objects counted', { a: Object.fromEntries(Array.from({ length: MAX_EVENT_FIELDS }, (_, i) => [`k${i}`, i])) }, 'too_many_fields'],
    [`a string of exactly ${MAX_EVENT_STRING_LENGTH}`, { a: 'x'.repeat(MAX_EVENT_STRING_LENGTH) }, undefined],
    ['a longer string in a nested array', { a: [['x'.repeat(MAX_EVENT_STRING_LENGTH + 1)]] }, 'string_too_long'],
    ['a longer nested member name', { a: { ['k'.repeat(MAX_EVENT_STRING_LENGTH + 1)]: 1 } }, 'string_too_long'],
  ])('%s -> %s', (_name, event, expected) => {
    expect(eventBoundViolation(event)).toBe(expected);
  });

  it('judges depth first, then fields, then strings, whatever the order of members', () => {
    const long = 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1);
    const wide = Array(MAX_EVENT_FIELDS).fill(0);
    expect(eventBoundViolation({ s: long, w: wide, d: nestedArrays(MAX_EVENT_DEPTH) })).toBe('too_deep');
    expect(eventBoundViolation({ d: nestedArrays(MAX_EVENT_DEPTH), w: wide, s: long })).toBe('too_deep');
    expect(eventBoundViolation({ s: long, w: wide })).toBe('too_many_fields');
    expect(eventBoundViolation({ w: wide, s: long })).toBe('too_many_fields');
  });

  it('walks a 1,000,000-level value only down to the bound', () => {
    const started = Date.now();
    expect(eventBoundViolation({ x: nestedArrays(1_000_000) })).toBe('too_deep');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
