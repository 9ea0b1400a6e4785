/**
 * The plugins the CLI and the library know by name (`--plugin NAME` of the contract suite) and
 * turn on by default (the Petstore's, which serves only a Petstore-shaped document). The core
 * never imports this folder: the mock and the suite apply only the plugins they are given.
 */
import type { Plugin } from './plugin.js';
import { petstore } from './petstore/index.js';

export { petstore };
export type { Plugin };
export const DEFAULT_PLUGINS: readonly Plugin[] = [petstore];
export const PLUGINS: Readonly<Record<string, Plugin>> = { [petstore.name]: petstore };
