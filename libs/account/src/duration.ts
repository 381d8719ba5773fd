const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses `30d`, `12h`, `90m`, `45s` into seconds; undefined when the text does not fit the grammar. */
export function parseDurationSeconds(text: string): number | undefined {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]];
  return seconds > 0 ? seconds : undefined;
}
