import { allOf, anyOf, compileFieldItem, compileKeywords, UNKNOWN, type CompiledItem, type ItemContext } from './field-item';
import { expandPattern, parseCondition, type ConditionNode } from './condition';

/** Compiles one search identifier: a map (AND of fields), a list of maps (OR), or a keyword list. */
function compileIdentifier(name: string, body: unknown, ctx: ItemContext): CompiledItem | string {
  const inName = (e: string) => `detection '${name}': ${e}`;
  if (body === null || body === undefined) return inName('is empty');
  if (Array.isArray(body)) {
    if (body.length === 0) return inName('is an empty list');
    const keywords = body.filter((b) => b === null || typeof b !== 'object');
    const maps = body.filter((b) => b !== null && typeof b === 'object');
    const parts: CompiledItem[] = [];
    if (keywords.length) {
      const k = compileKeywords(keywords, ctx);
      if (typeof k === 'string') return inName(k);
      parts.push(k);
    }
    for (const map of maps) {
      if (Array.isArray(map)) return inName('a list inside a list is not a Sigma search identifier');
      const m = compileMap(map as Record<string, unknown>, ctx);
      if (typeof m === 'string') return inName(m);
      parts.push(m);
    }
    return anyOf(parts);
  }
  if (typeof body === 'object') {
    const m = compileMap(body as Record<string, unknown>, ctx);
    return typeof m === 'string' ? inName(m) : m;
  }
  return inName(`must be a map or a list, got ${JSON.stringify(body)}`);
}

function compileMap(map: Record<string, unknown>, ctx: ItemContext): CompiledItem | string {
  const entries = Object.entries(map);
  if (entries.length === 0) return 'empty map';
  const parts: CompiledItem[] = [];
  for (const [spec, value] of entries) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return `'${spec}': a map is not a value`;
    const item = compileFieldItem(spec, value, ctx);
    if (typeof item === 'string') return item;
    parts.push(item);
  }
  return allOf(parts);
}

/** A compiled detection section: the predicate and its literal pre-filter guarantee. */
export type CompiledDetection = CompiledItem;

/** Compiles `detection` (or a filter's body) for one event type; returns a precise error when invalid. */
export function compileDetection(detection: Record<string, unknown>, ctx: ItemContext): CompiledDetection | string {
  const condition = detection.condition;
  if (typeof condition !== 'string') return `detection: 'condition' must be a string`;
  const identifiers = Object.keys(detection).filter((k) => k !== 'condition');
  if (identifiers.length === 0) return 'detection: no search identifier is defined';
  const compiled = new Map<string, CompiledItem>();
  for (const id of identifiers) {
    const item = compileIdentifier(id, detection[id], ctx);
    if (typeof item === 'string') return item;
    compiled.set(id, item);
  }
  const tree = parseCondition(condition);
  if (typeof tree === 'string') return tree;
  return compileNode(tree, compiled, identifiers, condition);
}

function compileNode(node: ConditionNode, items: Map<string, CompiledItem>, identifiers: string[], text: string): CompiledItem | string {
  switch (node.kind) {
    case 'id': {
      const item = items.get(node.name);
      if (!item) return `condition ${JSON.stringify(text)}: unknown identifier '${node.name}' (defined: ${identifiers.join(', ')})`;
      return item;
    }
    case 'not': {
      const child = compileNode(node.child, items, identifiers, text);
      if (typeof child === 'string') return child;
      if (child.partial) return UNKNOWN;
      const test = child.test;
      return { test: (v) => !test(v), guard: null };
    }
    case 'and':
    case 'or': {
      const children: CompiledItem[] = [];
      for (const c of node.children) {
        const compiled = compileNode(c, items, identifiers, text);
        if (typeof compiled === 'string') return compiled;
        children.push(compiled);
      }
      return node.kind === 'and' ? conjunction(children) : disjunction(children);
    }
    case 'of': {
      const names = expandPattern(node.pattern, identifiers);
      if (names.length === 0) {
        return `condition ${JSON.stringify(text)}: '${node.quantifier === 'all' ? 'all' : '1'} of ${node.pattern}' matches no identifier (defined: ${identifiers.join(', ')})`;
      }
      const children = names.map((n) => items.get(n) as CompiledItem);
      return node.quantifier === 'all' ? conjunction(children) : disjunction(children);
    }
  }
}

function conjunction(children: CompiledItem[]): CompiledItem {
  return allOf(children);
}

function disjunction(children: CompiledItem[]): CompiledItem {
  return anyOf(children);
}
