/**
 * The ceiling: Hono on @hono/node-server answering every request with a fixed JSON body, doing
 * nothing the mock does (no routing by document, no auth, no validation, no state).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const pet = { id: 1, name: 'Rex', tag: 'dog', status: 'available', categoryId: 1, photoUrls: ['https://example.com/rex.jpg'] };
const app = new Hono();
app.all('*', (c) => c.json(pet));
serve({ fetch: app.fetch, port: Number(process.argv[2] ?? 4099), hostname: '127.0.0.1' });
