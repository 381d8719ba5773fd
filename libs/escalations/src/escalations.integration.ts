import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { KafkaBus } from '@vigil/bus';
import { ALL_TOPICS, TOPICS } from '@vigil/contracts';
import { makeTempDir, waitUntil } from '@vigil/testing';
import { kafkaBrokers } from '../../../tools/integration/servers';
import { DeliveryService } from './delivery/delivery.service';
import { announceWorkspace, startEscalationsApp, type EscalationsApp } from './testing/escalations-app';
import { busRecord, findingRecord } from './testing/records';
import { WebhookReceiver } from './testing/webhook-receiver';

jest.setTimeout(180_000);

interface ExternalMessage {
  key: string;
  idempotencyKey: string;
  workspace: string;
  value: Record<string, any>;
}

describe('escalations with the Kafka bus and a Kafka destination (real broker)', () => {
  const temp = makeTempDir('vigil-escalations-kafka-');
  const workspace = { workspaceId: randomUUID(), name: `kafka-${randomUUID().slice(0, 8)}`, createdAt: new Date().toISOString() };
  const siemTopic = `siem.findings.${randomUUID().slice(0, 8)}`;
  const kafka = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
  const received: ExternalMessage[] = [];
  const apps: EscalationsApp[] = [];
  const receivers: WebhookReceiver[] = [];
  let consumer: Consumer;
  let replicaA: EscalationsApp;
  let replicaB: EscalationsApp;
  let kafkaDestination: { id: string };
  const env = () => ({ KAFKA_BROKERS: kafkaBrokers().join(','), VIGIL_LOG_LEVEL: 'warn' });
  const running = (app: EscalationsApp) => app.app.get(DeliveryService).running;
  const start = async () => {
    const app = await startEscalationsApp(temp.path, env());
    apps.push(app);
    return app;
  };
  const finding = (uid: string) => findingRecord(workspace.workspaceId, uid, { severity: 4 });

  beforeAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: siemTopic, numPartitions: 3 }], waitForLeaders: true });
    await admin.disconnect();
    consumer = kafka.consumer({ groupId: `siem-reader-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: siemTopic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push({
          key: message.key!.toString(),
          idempotencyKey: message.headers!['idempotency-key']!.toString(),
          workspace: message.headers!['vigil-workspace']!.toString(),
          value: JSON.parse(message.value!.toString()),
        });
      },
    });
    replicaA = await start();
    await announceWorkspace(replicaA.bus, workspace);
  });

  afterAll(async () => {
    await consumer?.disconnect();
    for (const app of apps) await app.close().catch(() => undefined);
    await Promise.all(receivers.map((r) => r.stop()));
    temp.cleanup();
  });

  async function create(app: EscalationsApp, body: Record<string, unknown>): Promise<any> {
    let response = await app.admin('POST', '/admin/v1/escalations', body);
    for (let i = 0; i < 100 && response.status === 400 && /no workspace/.test(response.body.message); i++) {
      await new Promise((r) => setTimeout(r, 100));
      response = await app.admin('POST', '/admin/v1/escalations', body);
    }
    expect(response.status).toBe(201);
    return response.body;
  }

  it('produces findings to the external topic while a stuck destination waits on its own', async () => {
    const stuck = await WebhookReceiver.start();
    receivers.push(stuck);
    stuck.fallback = { status: 503 };
    await create(replicaA, { workspace: workspace.name, name: 'stuck', retry: { maxAttempts: 50, initialBackoffMs: 2_000 }, webhook: { url: stuck.url } });
    kafkaDestination = await create(replicaA, { workspace: workspace.name, name: 'siem-kafka', kafka: { brokers: kafkaBrokers(), topic: siemTopic } });
    expect(kafkaDestination).toMatchObject({ kind: 'kafka', target: `${kafkaBrokers().join(',')}/${siemTopic}` });
    const findings = ['k-1', 'k-2', 'k-3', 'k-4'].map(finding);
    await replicaA.bus.publish(TOPICS.findings.name, findings.map(busRecord));

    await waitUntil(() => received.length >= 4, 'four findings on the SIEM topic', 60_000, 100);
    expect(received.map((m) => m.idempotencyKey).sort()).toEqual(['k-1:1', 'k-2:1', 'k-3:1', 'k-4:1']);
    for (const message of received) {
      expect(message.key).toBe(message.idempotencyKey.split(':')[0]);
      expect(message.workspace).toBe(workspace.workspaceId);
      expect(message.value).toEqual(findings.find((f) => f.recordId === message.idempotencyKey)!.finding);
    }
    expect(stuck.requests.length).toBeGreaterThanOrEqual(1);
    expect(stuck.accepted).toHaveLength(0);
  });

  it('a second replica picks up existing destinations at start, and adds and removes reach every replica within seconds', async () => {
    replicaB = await start();
    await waitUntil(() => running(replicaB).includes(kafkaDestination.id), 'replica B delivering the Kafka destination', 20_000);
    const healthy = await WebhookReceiver.start();
    receivers.push(healthy);
    const added = await create(replicaA, { workspace: workspace.workspaceId, name: 'added-later', webhook: { url: healthy.url } });
    const addedAt = Date.now();
    await waitUntil(() => running(replicaB).includes(added.id), 'replica B starting the new destination', 20_000);
    expect(Date.now() - addedAt).toBeLessThan(10_000);
    expect((await replicaB.admin('GET', `/admin/v1/escalations/${added.id}`)).body.name).toBe('added-later');
    expect((await replicaB.admin('DELETE', `/admin/v1/escalations/${added.id}`)).status).toBe(200);
    const removedAt = Date.now();
    await waitUntil(() => !running(replicaA).includes(added.id) && !running(replicaB).includes(added.id), 'both replicas stopping it', 20_000);
    expect(Date.now() - removedAt).toBeLessThan(10_000);
    expect((await replicaA.admin('GET', `/admin/v1/escalations/${added.id}`)).status).toBe(404);
  });

  it('loses nothing across a restart of every replica (at least once, by idempotency key)', async () => {
    await replicaA.bus.publish(TOPICS.findings.name, ['k-5', 'k-6'].map(finding).map(busRecord));
    await Promise.all(apps.splice(0).map((app) => app.close()));
    const bus = await KafkaBus.open({ brokers: kafkaBrokers(), topics: ALL_TOPICS, log: () => undefined });
    await bus.publish(TOPICS.findings.name, ['k-7', 'k-8', 'k-9'].map(finding).map(busRecord));
    await bus.close();

    replicaA = await start();
    const expected = Array.from({ length: 9 }, (_, i) => `k-${i + 1}:1`);
    await waitUntil(() => expected.every((key) => received.some((m) => m.idempotencyKey === key)), 'every finding on the SIEM topic', 90_000, 200);
    expect(new Set(received.map((m) => m.idempotencyKey))).toEqual(new Set(expected));
    // Repeats (if any) are the same finding under the same key.
    for (const key of expected) {
      const copies = received.filter((m) => m.idempotencyKey === key);
      expect(new Set(copies.map((m) => JSON.stringify(m.value))).size).toBe(1);
    }
  });
});
