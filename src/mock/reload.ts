/**
 * Watch mode: a new mock built from an edited document takes over the state of every collection
 * whose schema still accepts it; the others start from the seed. Its authorization server honours
 * the tokens the old one issued, signed with the same key (a front end stays signed in).
 */
import type { Mock } from './app.js';
import { SNAPSHOT_FORMAT } from '../state/snapshot.js';

export function carryState(from: Mock, to: Mock): { kept: string[]; reseeded: string[] } {
  const kept: string[] = [];
  const reseeded: string[] = [];
  if (from.oauth && to.oauth) to.oauth.takeOver(from.oauth);
  for (const collection of to.collections) {
    if (!from.store.has(collection.name)) {
      reseeded.push(collection.name);
      continue;
    }
    const checked = to.checkState({ format: SNAPSHOT_FORMAT, collections: { [collection.name]: from.store.collection(collection.name).export() } });
    if (typeof checked === 'string') {
      reseeded.push(collection.name);
    } else {
      to.store.collection(collection.name).import(checked.collections[collection.name]);
      kept.push(collection.name);
    }
  }
  return { kept, reseeded };
}
