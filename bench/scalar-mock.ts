/**
 * Scalar's mock server for the bench: @scalar/mock-server is a library without a command (its
 * command, `scalar document mock` in @scalar/cli, needs Node.js 24), so it is served the way its
 * documentation shows, createMockServer's Hono app on @hono/node-server.
 * `node scalar-mock.js FILE PORT`: the document is read as text and handed over whole.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createMockServer } from '@scalar/mock-server';

const [file, port] = process.argv.slice(2);
const app = await createMockServer({ document: readFileSync(file, 'utf8') });
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
