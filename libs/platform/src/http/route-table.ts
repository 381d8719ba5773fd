import { openApiDocument } from '@vigil/contracts';

interface RouteTemplate {
  pattern: RegExp;
  methods: string[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

function compile(): RouteTemplate[] {
  const paths = (openApiDocument as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths).map(([template, item]) => {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    const methods = Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    return { pattern: new RegExp(`^${source}/?$`), methods };
  });
}

let table: RouteTemplate[] | undefined;

/** Methods the API documents for a concrete path (empty when the path is unknown). Source: the OpenAPI document. */
export function allowedMethods(path: string): string[] {
  table ??= compile();
  return table.find((route) => route.pattern.test(path))?.methods ?? [];
}
