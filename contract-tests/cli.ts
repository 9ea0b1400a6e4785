#!/usr/bin/env node
/**
 * `npm run contract -- --base-url URL --token TOKEN`: the only module of the suite that reads
 * `process` (argv, env, exit code).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocumentLoadError, loadDocument } from '../src/document/load-document.js';
import { PACKAGE_ROOT } from '../src/package-root.js';
import { CONTRACT_USAGE, parseContractArgs } from './args.js';
import { formatCoverage, formatFailures, formatSummary } from './report/console.js';
import { toJUnit } from './report/junit.js';
import { ContractSetupError, runContract } from './run-contract.js';

const EMBEDDED_SPEC = join(PACKAGE_ROOT, 'spec/openapi.yaml');

async function main(): Promise<number> {
  const args = parseContractArgs(process.argv.slice(2), process.env);
  if (args.command === 'help') {
    process.stdout.write(CONTRACT_USAGE);
    return 0;
  }
  if (args.command === 'error') {
    process.stderr.write(`${args.message}\n`);
    return 2;
  }
  let document;
  try {
    document = await loadDocument(args.spec ?? EMBEDDED_SPEC);
  } catch (error) {
    if (error instanceof DocumentLoadError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  process.stdout.write(`Checking ${args.baseUrl} against ${document.api.info?.title ?? 'the document'} ${document.api.info?.version ?? ''}${args.readOnly ? ' (read-only)' : ''}\n`);
  let report;
  try {
    report = await runContract({ document, baseUrl: args.baseUrl, token: args.token, only: args.only, operations: args.operations, readOnly: args.readOnly, seed: args.seed });
  } catch (error) {
    if (error instanceof ContractSetupError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    process.stderr.write(`Cannot talk to ${args.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}.\n`);
    return 2;
  }
  process.stdout.write(formatFailures(report.failures));
  process.stdout.write(formatCoverage(report.coverage));
  writeFileSync(args.coverage, `${JSON.stringify(report.coverage, null, 2)}\n`);
  if (args.junit) writeFileSync(args.junit, toJUnit(report));
  process.stdout.write(formatSummary(report));
  return report.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`Unexpected failure: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
