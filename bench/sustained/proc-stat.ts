/** Reading CPU time from Linux /proc stat lines (the sampler's thread groups, the reference work's own thread). */

export const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a /proc stat line, in clock ticks (fields 14 and 15; the command name may contain spaces). */
export function ticksOf(stat: string): number {
  const fields = fieldsAfterName(stat);
  return Number(fields[11]) + Number(fields[12]);
}

/** The nice value of a /proc stat line (field 19). */
export function niceOf(stat: string): number {
  return Number(fieldsAfterName(stat)[16]);
}

/** The fields after the command name: index 0 is field 3 (the state). */
function fieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
