/**
 * The document and fixtures the package ships, served and checked when no other document is
 * given: by `serve`, `contract`, `createMock()` and `runContract()` alike.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

export const BUNDLED_SPEC = join(PACKAGE_ROOT, 'spec/openapi.yaml');
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures');
