/** DNS tunnelling per query on the shared validate split: TPR on tunnel names, FPR on ordinary names. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { assessSubdomain, splitHostname } from '@vigil/detection-engine';
import { pct, type EvalSection } from './table';

export const dnsTunnelPerQuery: EvalSection = {
  name: 'DNS tunnelling per query',
  async run(context) {
    const rows = readFileSync(path.join(context.dataDir, 'tunnel', 'validate.csv'), 'utf8').trim().split('\n').slice(1);
    let tp = 0, pos = 0, fp = 0, neg = 0;
    for (const row of rows) {
      const [label, qname] = row.split(',');
      const name = qname.replace(/\.$/, '');
      const split = splitHostname(name);
      // The subdomain as sent (case kept): mixed case is itself a sign of base64.
      const subdomain = split === undefined || split.subdomain === '' ? '' : name.slice(0, name.length - split.registeredDomain.length - 1);
      const random = subdomain !== '' && assessSubdomain(subdomain).randomLooking;
      if (label === '1') { pos++; if (random) tp++; } else { neg++; if (random) fp++; }
    }
    return [{
      title: 'DNS tunnelling per query (shared validate split)',
      columns: ['measure', 'result', 'detail', 'goal'],
      rows: [['per query', `TPR ${pct(tp, pos)} (${tp}/${pos})`, `FPR ${pct(fp, neg)} (${fp}/${neg})`, 'TPR ≥ 92 % at FPR ≤ 0.8 %']],
    }];
  },
};
