// A request body read with a limit, for the server handlers (createProxyHandler,
// createWebhookHandler): one reader, so both stop at the same byte.

/**
 * Reads `request`'s body, at most `max` bytes, as a stream with a counter: the bytes;
 * `undefined` as soon as it goes over (the rest is not read and the stream is cancelled), or
 * when a `content-length` over `max` is declared (then nothing is read, and the stream is left
 * as it is: a Node adapter may still be feeding it, and would throw into a cancelled one);
 * `null` when it cannot be read.
 */
export async function readCapped(request: Request, max: number): Promise<Uint8Array | undefined | null> {
  const length = Number(request.headers.get("content-length"));
  if (Number.isFinite(length) && length > max) return undefined;
  const stream = request.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}
