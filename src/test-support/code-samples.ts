/**
 * Running the document's `x-codeSamples`: the command for each language, and the state a sample
 * needs that the default seed lacks. Shared by src/code-samples.process.test.ts (the samples as written)
 * and the docs page's test (the samples as the page shows them).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Call } from './petstore.js';

const run = promisify(execFile);

/** Samples are written against the default seed; the one that needs a state the seed lacks gets it here. */
export const SAMPLE_PRECONDITIONS: Record<string, (call: Call) => Promise<unknown>> = {
  // Category 6 holds generated pets by default: move them so it can be deleted.
  deleteCategory: async (call) => {
    const pets = (await call('GET', '/pets?categoryId=6&limit=100')).body as Array<{ id: number }>;
    for (const pet of pets) await call('PATCH', `/pets/${pet.id}`, { categoryId: 1 });
  },
};

const COMMANDS: Record<string, (source: string) => [string, string[]]> = {
  cURL: (source) => ['bash', ['-c', source]],
  JavaScript: (source) => [process.execPath, ['--input-type=module', '-e', source]],
  Python: (source) => ['python3', ['-c', source]],
};

/** Runs a sample of a language named in `x-codeSamples` (`cURL`, `JavaScript`, `Python`); rejects when it exits non-zero or takes 15 s. */
export async function runSample(lang: string, source: string): Promise<string> {
  const command = COMMANDS[lang];
  if (!command) throw new Error(`No way to run a ${lang} sample.`);
  const [file, args] = command(source);
  const { stdout } = await run(file, args, { timeout: 120_000 });
  return stdout;
}
