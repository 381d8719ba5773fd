import { writeZip } from '@vigil/rules';

/** A customer Sigma rule that matches every DNS query under `suffix` — one alert per such event. */
export function markerRuleZip(id: string, suffix: string): Buffer {
  const rule = [
    `title: Marker query under ${suffix}`,
    `id: ${id}`,
    'status: test',
    'author: Vigil distributed e2e',
    'logsource:',
    '  category: dns',
    'detection:',
    '  selection:',
    `    query|endswith: '.${suffix}'`,
    '  condition: selection',
    'level: high',
    '',
  ].join('\n');
  return writeZip([{ name: 'marker.yml', data: rule }]);
}

export const ZIP_HEADERS = { 'content-type': 'application/zip' };
