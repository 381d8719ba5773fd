import { types } from 'node:util';

/**
 * The ArrayBuffers behind `views` that can be handed to another thread instead of copied: each one a view
 * covers whole (a slice of Node's shared Buffer pool, or of a larger buffer, is left to be copied), each listed
 * once (postMessage refuses a buffer listed twice).
 */
export function movableBuffersOf(views: readonly Uint8Array[]): ArrayBuffer[] {
  const movable = new Set<ArrayBuffer>();
  for (const view of views) {
    const buffer = view.buffer;
    if (types.isArrayBuffer(buffer) && view.byteOffset === 0 && view.byteLength === buffer.byteLength && buffer.byteLength > 0) movable.add(buffer);
  }
  return [...movable];
}
