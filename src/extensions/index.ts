/**
 * The extensions the CLI turns on by default (`--rules none` turns them off). The core never
 * imports this folder: `buildMock` applies only the extensions it is given.
 */
import type { MockExtension } from '../registries/extension.js';
import { petstore } from './petstore/index.js';

export { petstore };
export const DEFAULT_EXTENSIONS: readonly MockExtension[] = [petstore];
