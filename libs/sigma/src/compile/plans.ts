import type { TelemetryType } from '@vigil/contracts';
import type { CompiledDetection } from './detection';

/** Per event type compiled detection of a rule or filter; kept off the public objects. */
export const detectionPlans = new WeakMap<object, ReadonlyMap<TelemetryType, CompiledDetection>>();

export function plansOf(compiled: object): ReadonlyMap<TelemetryType, CompiledDetection> {
  const plans = detectionPlans.get(compiled);
  if (!plans) throw new Error('not a compiled Sigma rule or filter of this library');
  return plans;
}
