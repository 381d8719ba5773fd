import { murmur2Partition } from '@vigil/bus';
import { telemetryKey, TOPICS } from '@vigil/contracts';
import { hostPerPartition, mixedWorkload, postsPerGateway } from './workload';

describe('distributed workload', () => {
  it('picks one source address per partition of the events topic', () => {
    const workspace = '1b0c6f7e-9a53-4c43-9f0e-2f1f2b3c4d5e';
    const hosts = hostPerPartition(workspace);
    expect(hosts).toHaveLength(TOPICS.events.partitions);
    expect(hosts.map((ip) => murmur2Partition(telemetryKey(workspace, ip), TOPICS.events.partitions))).toEqual([...Array(TOPICS.events.partitions).keys()]);
  });

  it('pins every host to one gateway, uses both gateways and posts every event once', () => {
    const events = mixedWorkload(Date.parse('2026-01-01T00:00:00Z'));
    const plan = postsPerGateway(events, 2);
    const gatewayOf = new Map<string, Set<number>>();
    plan.forEach((posts, g) => posts.forEach((post) => post.events.forEach((e) => gatewayOf.set(e.srcIP!, (gatewayOf.get(e.srcIP!) ?? new Set()).add(g)))));
    expect([...gatewayOf.values()].every((gateways) => gateways.size === 1)).toBe(true);
    expect(new Set([...gatewayOf.values()].map((g) => [...g][0]))).toEqual(new Set([0, 1]));
    expect(plan.flat().reduce((n, post) => n + post.events.length, 0)).toBe(events.length);
  });
});
