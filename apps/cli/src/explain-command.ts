import { DnsExplainer, formatExplanation, IndicatorStore } from '@vigil/detection-engine';

/** Names from the arguments, or from standard input (one per line) when none are given or `-` is. */
async function namesFrom(args: string[]): Promise<string[]> {
  if (args.length > 0 && !(args.length === 1 && args[0] === '-')) return args;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}

/** `vigil explain dns <name>...`: the engine's view of each name, as text or JSON lines. */
export async function runExplainDns(args: string[], json: boolean): Promise<string> {
  const names = await namesFrom(args);
  const explainer = new DnsExplainer(new IndicatorStore());
  const explained = names.map((name) => explainer.explain(name));
  return json ? explained.map((e) => JSON.stringify(e)).join('\n') : explained.map(formatExplanation).join('\n\n');
}
