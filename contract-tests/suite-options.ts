/**
 * The suite's options from the environment, for every slice file: CONTRACT_BASE_URL (required),
 * CONTRACT_TOKEN, CONTRACT_SPEC (a file or URL; default the bundled Petstore document),
 * CONTRACT_SEED (default 1), CONTRACT_EXPLORE=0 (the fixed checks only; default: explore as the
 * CLI does), CONTRACT_BUDGET (exploration's requests).
 */
import type { DescribeContractOptions } from '../src/library/vitest.js';

/** How many slice files contract-tests/ holds (slice-1.test.ts ... slice-4.test.ts). */
export const SLICES = 4;

export function suiteOptions(slice: number): DescribeContractOptions {
  const env = process.env;
  return {
    baseUrl: env.CONTRACT_BASE_URL ?? '',
    token: env.CONTRACT_TOKEN || undefined,
    spec: env.CONTRACT_SPEC || undefined,
    seed: env.CONTRACT_SEED ? Number(env.CONTRACT_SEED) : undefined,
    explore: env.CONTRACT_EXPLORE === '0' ? false : undefined,
    budgetRequests: env.CONTRACT_BUDGET ? Number(env.CONTRACT_BUDGET) : undefined,
    slice: [slice, SLICES],
  };
}
