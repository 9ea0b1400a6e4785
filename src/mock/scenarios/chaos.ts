/**
 * Latency and faults for the whole server (`--delay`, `--error-rate`), drawn from a PRNG seeded by
 * `--seed`: the same seed and the same sequence of requests give the same delays and faults, so a
 * failing run can be replayed exactly.
 */
import type { Operation } from '../../openapi/operations/operation.js';
import { ApiError } from '../../core/api-error.js';

export interface ChaosOptions {
  /** Added to every answer: [min, max] milliseconds. */
  delay?: [number, number];
  /** Share of requests (0 to 1) answered with a 5xx. */
  errorRate?: number;
  seed: number;
}

export interface Chaos {
  /** Milliseconds to wait for this request, drawn from `range` (a request's own) or the server's delay. */
  delayMs: (range?: [number, number]) => number;
  /** The fault injected into this request, if any: a 5xx the operation declares, else 500. */
  fault: (operation: Operation) => ApiError | undefined;
}

/** mulberry32: a small, fast, seedable PRNG (enough for chaos, not for secrets). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createChaos(options: ChaosOptions): Chaos {
  const random = prng(options.seed);
  return {
    delayMs(range = options.delay) {
      if (!range) return 0;
      const [min, max] = range;
      return min + Math.floor(random() * (max - min + 1));
    },
    fault(operation) {
      if (!options.errorRate || random() >= options.errorRate) return undefined;
      const declared = operation.responses.map((r) => Number(r.status)).filter((s) => s >= 500 && s < 600).sort((a, b) => a - b)[0];
      const status = declared ?? 500;
      return new ApiError(status, 'INJECTED_FAULT', `A fault injected by --error-rate ${options.errorRate} (replay it with the same --seed).`);
    },
  };
}
