import { isAlias, isCollection, isPair, isScalar, type Document } from 'yaml';

/** The size of a YAML document as its data would be: every alias counted as a copy of what it names. */
export interface ExpandedSize {
  /** Scalars (keys and values), maps and lists. */
  nodes: number;
  /** UTF-8 bytes of all scalars. */
  scalarBytes: number;
  /** Alias references written in the document. */
  aliases: number;
}

/** Why a document's expanded size cannot be computed: an alias inside the node it names (a cycle). */
export class RecursiveAliasError extends Error {
  constructor(readonly anchor: string) {
    super(`YAML alias *${anchor} refers to a node that contains it`);
  }
}

const EMPTY = { nodes: 0, scalarBytes: 0 };

/**
 * Walks a parsed document's tree once, in document order, before anything is converted to data. An alias names
 * the last node anchored with its name before it, whose size is already known by then (memoised per node), so
 * the walk is linear in the size of the tree however much the aliases multiply: billions of expanded nodes are
 * counted, never built. An alias inside the node it names throws {@link RecursiveAliasError}.
 */
export function expandedSize(doc: Document): ExpandedSize {
  const sizes = new Map<unknown, { nodes: number; scalarBytes: number }>();
  const anchors = new Map<string, unknown>();
  const open = new Set<unknown>();
  let aliases = 0;

  const sizeOf = (node: unknown): { nodes: number; scalarBytes: number } => {
    if (node === null || node === undefined) return EMPTY;
    if (isAlias(node)) {
      aliases++;
      const target = anchors.get(node.source);
      if (target === undefined) return EMPTY; // an unknown anchor: the parser reports it
      if (open.has(target)) throw new RecursiveAliasError(node.source);
      return sizes.get(target) ?? EMPTY;
    }
    if (isPair(node)) return add(sizeOf(node.key), sizeOf(node.value));
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node);
    let size: { nodes: number; scalarBytes: number };
    if (isScalar(node)) {
      const value = node.value;
      size = { nodes: 1, scalarBytes: typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : String(value).length };
    } else if (isCollection(node)) {
      open.add(node);
      size = { nodes: 1, scalarBytes: 0 };
      for (const item of node.items) size = add(size, sizeOf(item));
      open.delete(node);
    } else {
      size = EMPTY;
    }
    if (anchor) sizes.set(node, size);
    return size;
  };

  const total = sizeOf(doc.contents);
  return { ...total, aliases };
}

function add(a: { nodes: number; scalarBytes: number }, b: { nodes: number; scalarBytes: number }): { nodes: number; scalarBytes: number } {
  return { nodes: a.nodes + b.nodes, scalarBytes: a.scalarBytes + b.scalarBytes };
}
