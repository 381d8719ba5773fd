import * as path from 'node:path';
import { loadKustomization, type K8sObject } from './kustomize-tree';

const BASE = path.resolve(__dirname, '../../../../deploy/kustomize/base');

type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type PodSpec = {
  containers: { env?: EnvVar[]; volumeMounts?: { name: string; mountPath: string; subPath?: string }[] }[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
};

describe('Kubernetes: the console in findings-api reaches the account and rules services', () => {
  const tree = loadKustomization(BASE);
  const find = (kind: string, name: string) => tree.resources.find((r: K8sObject) => r.kind === kind && r.metadata.name === name)!;
  const pod = (name: string) => (find('Deployment', name).spec as { template: { spec: PodSpec } }).template.spec;

  it('points findings-api at the account and rules Services', () => {
    const env = pod('findings-api').containers[0].env ?? [];
    const value = (name: string) => env.find((v) => v.name === name)?.value;
    expect(value('VIGIL_ACCOUNT_URL')).toBe('http://account');
    expect(value('VIGIL_RULES_URL')).toBe('http://rules');
    expect(find('Service', 'account')).toBeDefined();
    expect(find('Service', 'rules')).toBeDefined();
  });

  it("gives findings-api the same operator token the account and rules services keep as <data>/admin-token", () => {
    const tokenSource = pod('findings-api').containers[0].env?.find((v) => v.name === 'VIGIL_ACCOUNT_ADMIN_TOKEN')?.valueFrom?.secretKeyRef;
    expect(tokenSource).toEqual({ name: 'vigil-secrets', key: 'VIGIL_ACCOUNT_ADMIN_TOKEN' });
    // The rules service takes the same token on its operator route (the console deletes single rules with it).
    for (const name of ['account', 'rules']) {
      const service = pod(name);
      const mount = service.containers[0].volumeMounts?.find((m) => m.mountPath === '/data/admin-token');
      expect({ name, subPath: mount?.subPath }).toEqual({ name, subPath: 'admin-token' });
      const volume = service.volumes?.find((v) => v.name === mount?.name);
      expect(volume?.secret).toMatchObject({ secretName: 'vigil-secrets', items: [{ key: 'VIGIL_ACCOUNT_ADMIN_TOKEN', path: 'admin-token' }] });
    }
    const secret = find('Secret', 'vigil-secrets') as K8sObject & { stringData: Record<string, string> };
    // The placeholder must pass the variable's validation (16+ printable characters), else findings-api would not start.
    expect(secret.stringData.VIGIL_ACCOUNT_ADMIN_TOKEN).toMatch(/^[\x21-\x7e]{16,512}$/);
  });
});
