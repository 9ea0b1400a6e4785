/**
 * A mock on a real socket that notes what reached it, for the browser tests of attacks: a line
 * `METHOD /path STATUS` per request whose path `noted` keeps (all by default), in order, so a test
 * says which requests a page got through and how each was answered.
 */
import { startServer, type RunningServer } from '../server/serve.js';

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** @example const { server, reached } = await serveNoting(mock.app, { noted: (path) => path.startsWith('/__admin') }) */
export async function serveNoting(app: { fetch: Fetch }, { port = 0, noted = () => true }: { port?: number; noted?: (path: string) => boolean } = {}): Promise<{ server: RunningServer; reached: string[] }> {
  const reached: string[] = [];
  const server = await startServer(
    {
      fetch: async (request, env) => {
        const response = await app.fetch(request, env);
        const path = new URL(request.url).pathname;
        if (noted(path)) reached.push(`${request.method} ${path} ${response.status}`);
        return response;
      },
    },
    { port, host: '127.0.0.1' },
  );
  return { server, reached };
}
