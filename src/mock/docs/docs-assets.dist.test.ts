/**
 * The docs page's assets from the package: the files the build writes in dist/docs (`npm run build`
 * first), served by GET /__docs/<name> in-process, gzipped to clients that take it, with entity
 * tags. The page itself: docs-endpoint.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { petstore } from '../../test-support/petstore.js';
import { DOCS_ASSET_DIR, packageDocsAssets } from './docs-assets.js';

const assets = packageDocsAssets();

describe('GET /__docs', () => {
  it('serves its assets from the package: gzipped to clients that take it, with an entity tag', async () => {
    const { app } = await petstore({ docs: assets });
    const plain = await app.request('/__docs/swagger-ui-bundle.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const bytes = new Uint8Array(await plain.arrayBuffer());
    expect(Buffer.from(bytes).equals(readFileSync(join(DOCS_ASSET_DIR, 'swagger-ui-bundle.js')))).toBe(true);

    const zipped = await app.request('/__docs/swagger-ui-bundle.js', { headers: { 'Accept-Encoding': 'br, gzip;q=0.8' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    const unzipped = gunzipSync(new Uint8Array(await zipped.arrayBuffer()));
    expect(unzipped.length).toBe(bytes.length);
    expect((await app.request('/__docs/swagger-ui.css', { headers: { 'Accept-Encoding': 'gzip;q=0' } })).headers.get('content-encoding')).toBeNull();

    const etag = plain.headers.get('etag')!;
    const again = await app.request('/__docs/swagger-ui-bundle.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    // The gzipped representation has a tag of its own: the plain one's does not stand for it.
    const zippedTag = zipped.headers.get('etag')!;
    expect(zippedTag).not.toBe(etag);
    expect((await app.request('/__docs/swagger-ui-bundle.js', { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } })).status).toBe(200);
    expect((await app.request('/__docs/swagger-ui-bundle.js', { headers: { 'If-None-Match': zippedTag, 'Accept-Encoding': 'gzip' } })).status).toBe(304);
    expect((await app.request('/__docs/docs-ui.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await app.request('/__docs/docs-ui.js')).status).toBe(200);
    // Swagger UI's OAuth redirect page and its script, for Authorize against the mock's /__oauth.
    expect(await (await app.request('/__docs/oauth2-redirect.html')).text()).toContain('<script src="oauth2-redirect.js"></script>');
    expect(await (await app.request('/__docs/oauth2-redirect.js')).text()).toContain('swaggerUIRedirectOauth2');
  });
});
