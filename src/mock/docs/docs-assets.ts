/**
 * The docs page's assets on Node: the files the build puts in dist/docs (Swagger UI's bundle and
 * stylesheet from swagger-ui-dist, and src/mock/docs/ui built), read on first request, gzipped once, and
 * kept. Nothing is fetched from the network, at build time or after.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { DocsAsset, DocsAssetName, DocsAssets } from './docs-endpoint.js';

/** Where the build puts the page's assets. */
export const DOCS_ASSET_DIR = join(PACKAGE_ROOT, 'dist/docs');

/** @example docsResponder(packageDocsAssets(), options) */
export function packageDocsAssets(dir: string = DOCS_ASSET_DIR): DocsAssets {
  const read = new Map<DocsAssetName, DocsAsset | undefined>();
  return {
    get(name) {
      if (!read.has(name)) read.set(name, readAsset(join(dir, name)));
      return read.get(name);
    },
  };
}

function readAsset(file: string): DocsAsset | undefined {
  let body: Uint8Array;
  try {
    body = readFileSync(file);
  } catch {
    return undefined;
  }
  return { body, gzip: gzipSync(body, { level: 9 }) };
}
