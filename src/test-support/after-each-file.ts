/**
 * A setup file of every test file (vitest.config.ts): after the file's tests, whatever failed, what
 * they set up and did not undo is undone (a PostgreSQL server, postgres.ts), and the child
 * processes they started and did not stop are stopped (see processes.ts).
 */
import { afterAll } from 'vitest';
import { cleanUpAll } from './processes.js';

afterAll(() => cleanUpAll());
