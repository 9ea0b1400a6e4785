/**
 * Proof Key for Code Exchange (RFC 7636): the challenge a client sends to the authorization
 * endpoint, and the verifier it must then show the token endpoint. S256 and plain.
 */
import { base64Url, sha256 } from './crypto.js';

export type ChallengeMethod = 'S256' | 'plain';

/** A verifier or a challenge: 43 to 128 unreserved characters (RFC 7636, section 4.1 and 4.2). */
export const isPkceValue = (text: string): boolean => /^[A-Za-z0-9\-._~]{43,128}$/.test(text);

/** @example await verifierMatches({ value: challenge, method: 'S256' }, verifier) */
export async function verifierMatches(challenge: { value: string; method: ChallengeMethod }, verifier: string): Promise<boolean> {
  if (!isPkceValue(verifier)) return false;
  const expected = challenge.method === 'S256' ? base64Url(await sha256(verifier)) : verifier;
  return sameText(expected, challenge.value);
}

/** Compares in a time that does not depend on where the texts differ. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}
