import { fileURLToPath } from 'node:url';

/** Where the build writes the precompiled meta-schema validators: `dist/meta-validators`, from src or dist alike. */
const here = fileURLToPath(new URL('.', import.meta.url));
export const META_VALIDATORS_DIR = `${here.includes('/dist/src/') ? here.slice(0, here.indexOf('/dist/src/')) : here.slice(0, here.lastIndexOf('/src/'))}/dist/meta-validators`;
