/**
 * The authorization endpoint answers a browser's top-level navigation only (a link, a redirect, a
 * form, a popup), never a request a page makes on its own: a fetch or an XMLHttpRequest that
 * follows the redirect would read the code in the URL it ends at, and a frame or an image is no
 * place to sign in. Fetch Metadata decides when the browser sends it (`Sec-Fetch-Mode: navigate`
 * and `Sec-Fetch-Dest: document`, which no script can set); an older browser is told by `Origin`,
 * which a navigation's GET never carries and a form posts with. A program (curl, a test) sends
 * neither, and is served as before.
 */

/** A request header by its lower-case name. */
type Header = (lowerCaseName: string) => string | null | undefined;

/**
 * Why the request is refused, or undefined when it is a top-level navigation or comes from a
 * program. `ownOrigin` is the mock's origin as the request reached it: its sign-in form posts from there.
 *
 * @example notANavigation('GET', (name) => headers.get(name), 'http://127.0.0.1:4010') // undefined for curl
 */
export function notANavigation(method: string, header: Header, ownOrigin: string): string | undefined {
  const mode = header('sec-fetch-mode');
  const dest = header('sec-fetch-dest');
  if (mode != null || dest != null) {
    if (mode === 'navigate' && dest === 'document') return undefined;
    return `${RULE} this request is ${kindOf(mode, dest)} (Sec-Fetch-Mode: ${shown(mode)}, Sec-Fetch-Dest: ${shown(dest)}). ${INSTEAD}`;
  }
  const origin = header('origin');
  if (origin == null) return undefined;
  if (method === 'GET') return `${RULE} this GET carries Origin: ${shown(origin)}, which a navigation's GET never does (fetch or XMLHttpRequest sent it). ${INSTEAD}`;
  if (origin === ownOrigin) return undefined;
  return `${RULE} this ${method} comes from ${shown(origin)}, and only the mock's own sign-in form posts here (from ${ownOrigin}).`;
}

const RULE = 'The authorization endpoint answers a top-level navigation only (a link, a redirect, a form or a popup), since a page of any site could read the code it sends back to anything else:';
const INSTEAD = 'Send the browser here instead (location.assign, window.open).';

function kindOf(mode: string | null | undefined, dest: string | null | undefined): string {
  if (dest === 'iframe' || dest === 'frame' || dest === 'embed' || dest === 'object' || dest === 'fencedframe') return 'a frame or an embedded object';
  if (mode === 'cors' || mode === 'same-origin') return 'a fetch or XMLHttpRequest';
  if (mode === 'no-cors') return 'a no-cors request (an image, a script, a style sheet or a no-cors fetch)';
  return 'not a navigation to a document';
}

function shown(value: string | null | undefined): string {
  return value == null ? '(none)' : JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value).slice(1, -1);
}
