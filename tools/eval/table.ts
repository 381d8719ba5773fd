/**
 * The shared report format of `npm run eval:detections`: every section returns tables, and the main file
 * prints them the same way (Markdown), so a reader can compare each figure with its goal.
 */
export interface EvalTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  /** Lines printed under the table (method, caveats). */
  notes?: string[];
}

/** One section of the evaluation: a family of detections. */
export interface EvalSection {
  name: string;
  run(context: import('./context').EvalContext): Promise<EvalTable[]>;
}

export function pct(k: number, n: number, digits = 2): string {
  return n === 0 ? '-' : `${((100 * k) / n).toFixed(digits)} %`;
}

export function formatTable(table: EvalTable): string {
  const cell = (v: string | number): string => (typeof v === 'number' ? v.toLocaleString('en-US') : v).replace(/\|/g, '\\|');
  const lines = [`### ${table.title}`, '', `| ${table.columns.join(' | ')} |`, `|${table.columns.map(() => '---').join('|')}|`];
  for (const row of table.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  if (table.notes !== undefined && table.notes.length > 0) lines.push('', ...table.notes);
  return lines.join('\n');
}
