#!/usr/bin/env node
/**
 * The command line: the only module that reads `process` (argv, env, signals, exit codes).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { createMock, DEFAULT_SEED, DEMO_API_KEY } from './app.js';
import { parseCommand, USAGE, type ServeArgs } from './cli/parse-args.js';
import { DocumentLoadError, loadDocument } from './document/load-document.js';
import { startServer } from './server.js';
import { FixtureError } from './state/load-fixtures.js';

// This file runs as dist/src/cli.js: the package root is two levels up.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const EMBEDDED_SPEC = `${packageRoot}spec/openapi.yaml`;
const EMBEDDED_FIXTURES = `${packageRoot}fixtures`;

async function main(): Promise<number> {
  const command = parseCommand(process.argv.slice(2), process.env);
  switch (command.command) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`${JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8')).version}\n`);
      return 0;
    case 'error':
      process.stderr.write(`${command.message}\n`);
      return 2;
    default:
      return serve(command);
  }
}

async function serve(args: ServeArgs): Promise<number> {
  const specPath = args.spec ?? EMBEDDED_SPEC;
  const fixtures = args.fixtures ?? (args.spec ? undefined : EMBEDDED_FIXTURES);
  let mock;
  try {
    const document = await loadDocument(specPath);
    mock = createMock(document, {
      apiKeys: args.apiKeys,
      seed: args.seed,
      counts: args.counts,
      fixtures,
      onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
    });
  } catch (error) {
    if (error instanceof DocumentLoadError || error instanceof FixtureError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let running;
  try {
    running = await startServer(mock.app, { port: args.port, host: args.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      code === 'EADDRINUSE'
        ? `Port ${args.port} is already in use; choose another with --port.\n`
        : `Cannot listen on ${args.host}:${args.port}: ${(error as Error).message}.\n`,
    );
    return 1;
  }

  const shown = relative(process.cwd(), specPath) || specPath;
  const counts = Object.entries(mock.store.counts()).map(([name, n]) => `${name} ${n}`).join(', ');
  const keyLine = args.apiKeys
    ? `${args.apiKeys.length} key(s) from ${process.env.MOCK_API_KEYS && !process.argv.includes('--api-key') ? 'MOCK_API_KEYS' : '--api-key'} (not shown)`
    : `${DEMO_API_KEY}  (send Authorization: Bearer ${DEMO_API_KEY})`;
  process.stdout.write(
    [
      `Mock of ${mock.operations.length} operations listening on ${running.url}`,
      `  document  ${shown}`,
      `  API key   ${keyLine}`,
      `  records   ${counts || 'none'} (seed ${args.seed ?? DEFAULT_SEED})`,
      `  try       curl -H 'Authorization: Bearer ${args.apiKeys ? '<API_KEY>' : DEMO_API_KEY}' ${running.url}${firstListPath(mock)}`,
      '',
    ].join('\n'),
  );

  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`${signal}: finishing in-flight requests (up to 10 s), then stopping.\n`);
      running.close().then(() => resolve(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

function firstListPath(mock: ReturnType<typeof createMock>): string {
  const list = mock.operations.find((op) => op.method === 'get' && !op.path.includes('{'));
  return list?.path ?? '/';
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`Unexpected failure: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
