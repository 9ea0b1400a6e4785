/**
 * The pages the authorization server shows a browser: the sign-in form that asks a caller for an
 * API key, and a plain page (signed out), each with a Content-Security-Policy of its own.
 */
import { escapeHtml } from '../../core/html.js';
import { SECURITY_HEADERS } from '../../core/security-headers.js';
import type { Form } from './oauth-form.js';
import { OAUTH_ENDPOINTS } from './oauth-paths.js';

/** A page of the mock's own, its form (if any) allowed to post to the mock and to `formTarget`. */
export function page(status: number, title: string, body: string, formTarget?: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · mock</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}input,button{font:inherit;padding:.4rem}label{display:block;margin:1rem 0 .3rem}.error{color:#b00}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
  const csp = ["default-src 'none'", "style-src 'unsafe-inline'", `form-action 'self'${formTarget ? ` ${formTarget}` : ''}`, "frame-ancestors 'none'", "base-uri 'none'"].join('; ');
  // same-origin, not no-referrer: the sign-in form then posts with the mock's Origin (no-referrer sends `Origin: null`), which a browser without Fetch Metadata is judged by.
  return new Response(html, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin' } });
}

/** The form a caller who may not be signed in at once fills in with an API key; it posts the request back here. */
export function signInPage(params: Form, redirect: URL, wrongKey: boolean): Response {
  const names = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'login_hint', 'response_mode', 'prompt'];
  const hidden = names
    .map((name) => [name, params.get(name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value!)}">`)
    .join('\n');
  const body = `<p>The mock has no users. To sign in to ${escapeHtml(redirect.origin)}, give one of its API keys.</p>
${wrongKey ? '<p class="error">That is none of the mock\'s API keys.</p>' : ''}
<form method="post" action="${OAUTH_ENDPOINTS.authorize}">
${hidden}
<label for="api_key">API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" required autofocus>
<button type="submit">Sign in</button>
</form>`;
  return page(wrongKey ? 401 : 200, 'Sign in to the mock', body, redirect.origin);
}
