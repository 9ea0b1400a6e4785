/**
 * The docs page's script (GET /__docs, after Swagger UI's bundle): reads the page's settings and
 * the mock's copy of the document, points the document at the mock (documentForDocs), renders it
 * with Swagger UI and the mock's plugin, fills in Authorize with the key the page offers, and adds
 * the drawer of the mock's request log.
 */
import type { DocumentObject } from '../../../openapi/document/objects.js';
import { documentForDocs, type DocsConfig } from '../docs-document.js';
import { mockDocsPlugin } from './plugin.js';
import { requestLogDrawer } from './request-log.js';
import type { SwaggerUi } from './swagger-ui.js';

async function start(): Promise<void> {
  const config = JSON.parse(document.getElementById('mock-docs-config')?.textContent ?? '{}') as DocsConfig;
  const mockUrl = `${location.origin}${config.basePath}`;
  const target = document.getElementById('docs')!;
  const SwaggerUIBundle = window.SwaggerUIBundle;
  if (!SwaggerUIBundle) return fail(target, 'Swagger UI did not load (/__docs/swagger-ui-bundle.js).');
  const response = await fetch(config.specUrl, { headers: { Accept: 'application/json' } });
  if (!response.ok) return fail(target, `The document could not be read from ${config.specUrl} (${response.status}).`);
  // With the mock's authorization server, Authorize's OAuth flows sign in against it (its origin's /__oauth).
  const doc = documentForDocs((await response.json()) as DocumentObject, mockUrl, config.values, config.oauth ? location.origin : undefined);
  target.before(banner(config, mockUrl));
  // Below the pane the reference scrolls in (docs-ui.css), so the drawer never covers it.
  document.getElementById('mock-docs-main')!.after(requestLogDrawer());

  const ui: SwaggerUi = SwaggerUIBundle({
    spec: doc,
    domNode: target,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [mockDocsPlugin(doc, config)],
    layout: 'BaseLayout',
    deepLinking: true,
    // The only request Swagger UI would make beyond the page's origin: its online validator badge.
    validatorUrl: null,
    displayRequestDuration: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    persistAuthorization: false,
    // Where the mock's authorization server sends a sign-in back: the page of swagger-ui-dist, under /__docs (Swagger UI's default would be /oauth2-redirect.html).
    ...(config.oauth ? { oauth2RedirectUrl: `${location.origin}${config.oauth.redirectPath}` } : {}),
    // Called on a later tick (Swagger UI's on-complete plugin), once `ui` is set.
    onComplete: () => offerKey(ui, doc, config.apiKey),
  });
  // PKCE for the authorization code flow; the key the page offers is the client secret the client credentials flow needs.
  if (config.oauth) ui.initOAuth({ clientId: 'mock-docs', clientSecret: config.apiKey, scopeSeparator: ' ', usePkceWithAuthorizationCodeGrant: true });
}

/** Authorize filled in with the key for every scheme the mock checks a key with (bearer, basic, apiKey). */
function offerKey(ui: SwaggerUi, doc: DocumentObject, key: string | undefined): void {
  if (!key) return;
  for (const [name, scheme] of Object.entries(doc.components?.securitySchemes ?? {})) {
    const http = scheme?.type === 'http' ? String(scheme.scheme).toLowerCase() : undefined;
    if (scheme?.type === 'apiKey' || http === 'bearer') ui.preauthorizeApiKey(name, key);
    else if (http === 'basic') ui.preauthorizeBasic(name, key, '');
  }
}

/** A line above the reference: where the page is, where its requests go, and whether a key was filled in. */
function banner(config: DocsConfig, mockUrl: string): HTMLElement {
  const bar = document.createElement('header');
  bar.className = 'mock-docs-bar';
  const parts: Array<string | HTMLElement> = ['Served by the mock: "Try it out" sends requests to ', code(mockUrl), '.'];
  if (config.apiKey) parts.push(' Authorize is filled in with the key ', code(config.apiKey), '.');
  if (config.oauth) parts.push(" Authorize's OAuth flows sign in at the mock (", code('/__oauth'), ').');
  parts.push(' The document: ', link(config.specUrl), '.');
  bar.append(...parts);
  return bar;
}

function code(text: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = text;
  return element;
}

function link(href: string): HTMLElement {
  const element = document.createElement('a');
  element.href = href;
  element.textContent = href;
  return element;
}

function fail(target: HTMLElement, message: string): void {
  const p = document.createElement('p');
  p.className = 'mock-docs-error';
  p.textContent = message;
  target.replaceChildren(p);
}

start().catch((error: unknown) => fail(document.getElementById('docs')!, `The docs page failed: ${(error as Error).message}`));
