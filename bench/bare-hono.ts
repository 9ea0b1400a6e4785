/**
 * The ceiling: Hono on @hono/node-server answering every request with a fixed JSON body, doing
 * nothing the mock does (no routing by document, no auth, no validation, no state).
 * `node bare-hono.js PORT [--batches]`: with `--batches`, answers are written the way the mock
 * writes them (answerInBatches), so the ceiling for that transport can be measured too.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { answerInBatches } from '../src/server/serve.js';

const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const app = new Hono();
app.all('*', (c) => c.json(pet));
serve({ fetch: process.argv.includes('--batches') ? answerInBatches(app.fetch) : app.fetch, port: Number(process.argv[2] ?? 4099), hostname: '127.0.0.1' });
