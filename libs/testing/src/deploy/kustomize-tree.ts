import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as parsed from YAML (only the fields the checks read are typed). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface KustomizePatch {
  /** The kustomization directory that declares the patch. */
  declaredIn: string;
  /** A `target` selector (kind and a name regex), when given. */
  target?: { kind?: string; name?: string };
  /** Strategic-merge patch documents (from `path`, or an inline patch that is not a JSON 6902 list). */
  documents: K8sObject[];
}

export interface KustomizeTree {
  /** Every resource reachable from the kustomization, bases included, before patches. */
  resources: K8sObject[];
  patches: KustomizePatch[];
  /** YAML files read, relative to the directory given. */
  files: string[];
}

/** Parses every document of a YAML file, failing with the file name on a syntax error. */
export function readYamlDocuments(file: string): unknown[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  return documents.map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
    return document.toJS();
  }).filter((value) => value !== null && value !== undefined);
}

function asObjects(file: string, values: unknown[]): K8sObject[] {
  return values.map((value) => {
    const object = value as Partial<K8sObject>;
    if (typeof object?.kind !== 'string' || typeof object.apiVersion !== 'string' || typeof object.metadata?.name !== 'string') {
      throw new Error(`${file}: every document needs apiVersion, kind and metadata.name`);
    }
    return object as K8sObject;
  });
}

/**
 * Loads a kustomization directory the way `kustomize build` collects its inputs: `resources` (files, or
 * directories holding their own kustomization.yaml, recursively) and `patches`. Patches are not applied.
 */
export function loadKustomization(dir: string, root = dir): KustomizeTree {
  const kustomizationFile = path.join(dir, 'kustomization.yaml');
  if (!existsSync(kustomizationFile)) throw new Error(`${dir} has no kustomization.yaml`);
  const [kustomization] = readYamlDocuments(kustomizationFile) as { resources?: string[]; patches?: { path?: string; patch?: string; target?: { kind?: string; name?: string } }[] }[];
  const tree: KustomizeTree = { resources: [], patches: [], files: [path.relative(root, kustomizationFile)] };
  for (const entry of kustomization.resources ?? []) {
    const target = path.resolve(dir, entry);
    if (!existsSync(target)) throw new Error(`${kustomizationFile}: resource ${entry} does not exist`);
    if (statSync(target).isDirectory()) {
      const nested = loadKustomization(target, root);
      tree.resources.push(...nested.resources);
      tree.patches.push(...nested.patches);
      tree.files.push(...nested.files);
    } else {
      tree.resources.push(...asObjects(target, readYamlDocuments(target)));
      tree.files.push(path.relative(root, target));
    }
  }
  for (const patch of kustomization.patches ?? []) {
    let documents: K8sObject[] = [];
    if (patch.path) {
      const file = path.resolve(dir, patch.path);
      if (!existsSync(file)) throw new Error(`${kustomizationFile}: patch ${patch.path} does not exist`);
      documents = asObjects(file, readYamlDocuments(file));
      tree.files.push(path.relative(root, file));
    } else if (patch.patch) {
      const parsed = readInlinePatch(patch.patch);
      if (!Array.isArray(parsed)) documents = asObjects(`${kustomizationFile} (inline patch)`, [parsed]);
    } else {
      throw new Error(`${kustomizationFile}: a patch needs a path or an inline patch`);
    }
    tree.patches.push({ declaredIn: dir, target: patch.target, documents });
  }
  return tree;
}

function readInlinePatch(text: string): unknown {
  const [document, ...rest] = parseAllDocuments(text);
  if (rest.length > 0 || document.errors.length > 0) throw new Error(`inline patch is not one YAML document: ${text.slice(0, 80)}`);
  return document.toJS();
}

/** Resources a patch applies to: its target selector (name is a regex, anchored like kustomize's) or its own kind/name. */
export function patchTargets(patch: KustomizePatch, resources: K8sObject[]): K8sObject[] {
  if (patch.target) {
    const name = patch.target.name === undefined ? undefined : new RegExp(`^(?:${patch.target.name})$`);
    return resources.filter((r) => (patch.target!.kind === undefined || r.kind === patch.target!.kind) && (!name || name.test(r.metadata.name)));
  }
  return patch.documents.flatMap((document) => resources.filter((r) => r.kind === document.kind && r.metadata.name === document.metadata.name));
}
