/**
 * Reads a request body with a size cap: refused from `Content-Length` alone when that is over
 * the cap, otherwise read chunk by chunk and abandoned as soon as the cap is passed, so a huge or
 * endless upload is never held in memory.
 */

/** Undefined means the body is over the cap. */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
