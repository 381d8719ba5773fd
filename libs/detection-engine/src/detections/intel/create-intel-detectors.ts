import type { IndicatorStore } from '../../intel/indicator-store';
import type { Detector } from '../detection';
import { EventIntelLookup } from './event-intel';
import { IntelRuleDetector } from './intel-rule-detector';
import type { DnsBypassOptions } from './intel-rules';
import {
  c2Rule,
  dnsBypassRule,
  dynamicDnsRule,
  encryptedDnsRule,
  ircRule,
  maliciousRule,
  miningRule,
  sinkholeRule,
  telegramRule,
  torCircuitRule,
  torDnsRule,
  tunnelServiceRule,
} from './intel-rules';

export type IntelDetectorOptions = DnsBypassOptions;

/**
 * The intel-driven detections over one store. They share a per-event lookup cache, so an event is looked up
 * in the store once however many of them read it; a store refresh is seen by the next event.
 */
export function createIntelDetectors(store: IndicatorStore, options: IntelDetectorOptions = {}): Detector[] {
  const lookup = new EventIntelLookup(store);
  return [
    c2Rule,
    sinkholeRule,
    maliciousRule,
    miningRule,
    ircRule,
    torDnsRule,
    torCircuitRule,
    telegramRule,
    dynamicDnsRule,
    tunnelServiceRule,
    encryptedDnsRule(options),
    dnsBypassRule(options),
  ].map((rule) => new IntelRuleDetector(rule, lookup));
}
