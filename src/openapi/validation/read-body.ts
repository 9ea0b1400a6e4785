/**
 * Reads a request body with a size cap: refused from `Content-Length` alone when that is over the
 * cap, otherwise read chunk by chunk and abandoned as soon as the cap is passed, so a huge or
 * endless upload is never held in memory. (Over a socket on Node, src/server/node-requests.ts reads
 * Node's IncomingMessage the same way.)
 */
import { readCapped } from '../../core/bytes.js';

/** The body of a Request (or a Response: the contract suite reads answers the same way); undefined means it is over the cap. */
export async function readBody(request: Pick<Request, 'headers' | 'body'>, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  return request.body ? readCapped(request.body, maxBytes) : new Uint8Array(0);
}
