import { IndicatorStore } from '../intel/indicator-store';
import { DnsExplainer, formatExplanation } from './explain-dns';

describe('DnsExplainer', () => {
  const explainer = new DnsExplainer(new IndicatorStore());

  it('scores a popular name low and raises nothing', () => {
    const e = explainer.explain('www.Google.com.');
    expect(e).toMatchObject({ name: 'www.google.com', registeredDomain: 'google.com', detections: [], intel: [] });
    expect(e.dga!.aboveThreshold).toBe(false);
    expect(e.popularity).toBeDefined();
  });

  it('scores a random registrable label above the DGA threshold', () => {
    const e = explainer.explain('xkqjzvbwpthrmfgl.biz');
    expect(e.dga!.score).toBeGreaterThan(e.dga!.threshold);
    expect(formatExplanation(e)).toContain('ABOVE');
  });

  it('judges a tunnel-like subdomain as random-looking', () => {
    const e = explainer.explain('mzxw6ytboi4dcmrtgq2tmnzygeydcmrt.t.example-tunnel.net');
    expect(e.tunnel).toMatchObject({ randomLooking: true });
    expect(e.tunnel!.payloadLength).toBeGreaterThanOrEqual(24);
  });

  it('reports what fires on a single query: OAST', () => {
    const e = explainer.explain('abc123.oast.fun');
    expect(e.detections.map((d) => d.id)).toContain('oast_domain');
    expect(e.flags).toContain('oast');
  });
});
