import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-root.js';

/** Where the build writes the precompiled meta-schema validators, whether this runs from src, dist or the bundle. */
export const META_VALIDATORS_DIR = join(PACKAGE_ROOT, 'dist/meta-validators');
