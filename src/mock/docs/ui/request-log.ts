/**
 * The mock's request log beside the reference: a drawer that, while open, reads the admin API's
 * `GET /__admin/requests` every two seconds and lists the last requests the mock answered (the
 * page's own try-it requests, and any other client's). It only reads. The admin API answers a
 * browser on loopback only (or with its token, which the page does not have): elsewhere, the
 * drawer says so instead.
 */
import { describeScenario, type LoggedRequest } from '../../admin/request-log.js';

const POLL_MS = 2000;

/** The drawer, closed; it starts reading when opened and stops when closed. */
export function requestLogDrawer(source = '/__admin/requests?limit=50'): HTMLElement {
  const drawer = document.createElement('details');
  drawer.className = 'mock-log';
  const summary = document.createElement('summary');
  summary.textContent = 'Requests to this mock';
  const body = document.createElement('div');
  body.className = 'mock-log-body';
  drawer.append(summary, body);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    timer = undefined;
    await refresh(source, body);
    if (drawer.open) timer = setTimeout(poll, POLL_MS);
  };
  drawer.addEventListener('toggle', () => {
    if (drawer.open && timer === undefined) void poll();
    if (!drawer.open && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  });
  return drawer;
}

async function refresh(source: string, body: HTMLElement): Promise<void> {
  let response: Response;
  try {
    response = await fetch(source, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    return note(body, 'The mock did not answer.');
  }
  if (response.status === 404) return note(body, 'The admin API is off (--no-admin), and the request log with it.');
  if (!response.ok) return note(body, `The request log is the admin API's, which answers a browser on this machine only (without --admin-token); here it said ${response.status}.`);
  const { requests } = (await response.json()) as { requests: LoggedRequest[] };
  if (!requests.length) return note(body, 'No request yet: try one out.');
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const title of ['time', 'method', 'path', 'status', 'ms', 'scenario']) head.append(cell('th', title));
  const rows = table.createTBody();
  for (const entry of requests) {
    const row = rows.insertRow();
    row.className = `mock-log-${String(entry.status)[0]}xx`;
    row.append(
      cell('td', String(entry.time).slice(11, 19)),
      cell('td', entry.method),
      cell('td', entry.path),
      cell('td', String(entry.status)),
      cell('td', String(entry.ms)),
      cell('td', scenarioText(entry)),
    );
  }
  body.replaceChildren(table);
}

/** What a scenario did, as the command's log says it (`code=404: forced`), and the session if any. */
function scenarioText(entry: LoggedRequest): string {
  return [entry.scenario && entry.scenario !== 'none' && describeScenario(entry.scenario), entry.session && `session ${entry.session}`].filter(Boolean).join('; ');
}

function cell(tag: 'th' | 'td', text: string): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

function note(body: HTMLElement, text: string): void {
  const p = document.createElement('p');
  p.textContent = text;
  body.replaceChildren(p);
}
