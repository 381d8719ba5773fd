/** `base64`: the value as sent, base64-encoded (UTF-8). */
export function base64(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64');
}

/**
 * `base64offset`: the three encodings the value takes inside a longer base64 text, depending on its
 * byte offset modulo 3, each trimmed of the characters that depend on neighbouring bytes.
 */
export function base64Offsets(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const startTrim = [0, 2, 3];
  const endTrim = [0, 3, 2];
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const end = encoded.length - endTrim[(bytes.length + offset) % 3];
    out.push(encoded.slice(startTrim[offset], end));
  }
  return out.filter((v) => v.length > 0);
}

const DASHES = ['-', '/', '\u2013', '\u2014', '\u2015'];

/** `windash`: the value with every option dash (`-x` at a word start) written as each Windows dash variant. */
export function windashVariants(value: string): string[] {
  const variants = new Set<string>([value]);
  const optionDash = /(^|\s)[-/\u2013\u2014\u2015](?=\S)/g;
  for (const dash of DASHES) variants.add(value.replace(optionDash, (_m, lead: string) => lead + dash));
  return [...variants];
}
