import { compileRule, type CompileOptions } from '../compile/rule-compiler';
import type { CompiledRule } from '../types';

/** Compiles an inline rule for tests; throws with the compiler's error so a failing test says why. */
export function ruleOf(detection: Record<string, unknown>, logsource: Record<string, string> = { category: 'proxy' }, options: CompileOptions = {}, extra: Record<string, unknown> = {}): CompiledRule {
  const result = compileRule({ title: 'test rule', logsource, detection, ...extra }, options);
  if (!result.ok) throw new Error(result.error);
  return result.rule;
}

/** The compiler's error for an inline rule that must be rejected. */
export function errorOf(detection: Record<string, unknown>, logsource: Record<string, string> = { category: 'proxy' }, options: CompileOptions = {}): string {
  const result = compileRule({ title: 'test rule', logsource, detection }, options);
  if (result.ok) throw new Error('rule compiled but was expected to be rejected');
  return result.error;
}
