/**
 * `node dist/bench/fault-server.js NAME`: the Petstore mock behind one fault of STATE_FAULTS or
 * INPUT_FAULTS (src/test-support/contract-servers), on a free loopback port, in a process of its
 * own so that the suite timing it (bench/first-failures.ts) has a core of its own too. It writes
 * `listening URL` once it listens, then `shown METHOD PATH STATUS` the first time the fault shows: a
 * request answered 5xx, or a read answered otherwise than the unbroken mock answers the same read
 * at that moment.
 * SIGTERM closes it.
 */
import { buildMock, type Mock } from '../src/mock/app.js';
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from '../src/core/bundled.js';
import { loadDocument } from '../src/openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../src/plugins/index.js';
import { startServer } from '../src/server/serve.js';
import { INPUT_FAULTS } from '../src/test-support/contract-servers/input-faults.js';
import { STATE_FAULTS } from '../src/test-support/contract-servers/state-faults.js';
import type { Handler } from '../src/test-support/contract-servers/faults.js';

const FAULTS = [...STATE_FAULTS, ...INPUT_FAULTS];

/** An answer reduced to what a client judges: status, total count and body. */
async function seen(response: Response): Promise<string> {
  return `${response.status} ${response.headers.get('x-total-count') ?? ''} ${await response.clone().text()}`;
}

/**
 * The faulty handler, noting the first request on which it departs from the unbroken mock. A read
 * is asked of the mock first (reads change nothing), then of the faulty handler; a write cannot be
 * sent twice, so only its 5xx shows the fault (the unbroken mock never answers one).
 */
function noticing(mock: Mock, faulty: Handler, onShown: (request: Request, response: Response) => void): Handler {
  let shown = false;
  return async (request) => {
    if (shown) return faulty(request);
    const reference = request.method === 'GET' ? await seen(await mock.app.fetch(new Request(request.url, { headers: request.headers }))) : undefined;
    const response = await faulty(request);
    if (response.status >= 500 || (reference !== undefined && reference !== (await seen(response)))) {
      shown = true;
      onShown(request, response);
    }
    return response;
  };
}

async function main(name: string | undefined): Promise<void> {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) throw new Error(`Unknown fault ${name}; the faults are: ${FAULTS.map((f) => f.name).join(', ')}`);
  const mock = buildMock(await loadDocument(BUNDLED_SPEC), { fixtures: BUNDLED_FIXTURES, plugins: DEFAULT_PLUGINS });
  const handler = noticing(mock, fault.wrap(mock), (request, response) => {
    const url = new URL(request.url);
    process.stdout.write(`shown ${request.method} ${url.pathname}${url.search} ${response.status}\n`);
  });
  const running = await startServer({ fetch: handler }, { port: 0, host: '127.0.0.1', shutdownGraceMs: 1000 });
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
  process.stdout.write(`listening ${running.url}\n`);
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
