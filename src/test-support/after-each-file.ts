/**
 * A setup file of every test file (vitest.config.ts): after the file's tests, whatever failed, the
 * child processes they started and did not stop are stopped (see processes.ts).
 */
import { afterAll } from 'vitest';
import { stopAll } from './processes.js';

afterAll(() => stopAll());
