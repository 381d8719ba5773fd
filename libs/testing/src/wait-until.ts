/** Polls a synchronous condition every `intervalMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
