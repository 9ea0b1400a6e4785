/**
 * The reports read a run's report; they never reach the runner that builds it
 * (run-contract.ts imports report/mask.ts, so a report importing the runner closes a loop between
 * the two). The report's types live in contract-report.ts, which both import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test-support/petstore.js';

const SRC = join(ROOT, 'src');

/** The modules of src/ a module imports, by their path from src/ (type-only imports too). */
function importsOf(module: string): string[] {
  const text = readFileSync(join(SRC, module), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((match) => normalize(join(dirname(module), match[1])).replace(/\.js$/, '.ts'));
}

/** Every module reached from `starts` through imports, with the chain that reached it. */
function reached(starts: string[]): Map<string, string[]> {
  const chains = new Map<string, string[]>(starts.map((start) => [start, [start]]));
  const todo = [...starts];
  while (todo.length > 0) {
    const module = todo.pop()!;
    for (const to of importsOf(module)) {
      if (chains.has(to)) continue;
      chains.set(to, [...chains.get(module)!, to]);
      todo.push(to);
    }
  }
  return chains;
}

describe('the contract reports', () => {
  const reports = readdirSync(join(SRC, 'contract/report'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => `contract/report/${name}`);

  it('never reach the runner through their imports', () => {
    const chains = reached(reports);
    // The walk follows imports (a broken pattern would reach nothing and pass everything).
    expect(chains.has('contract/contract-report.ts')).toBe(true);
    expect(chains.get('contract/run-contract.ts')?.join(' -> ')).toBeUndefined();
  });
});
