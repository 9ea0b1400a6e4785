/**
 * The processes the contract section of the bench starts (the mock, the contract CLI, a fault
 * server): started with their output read line by line, stopped in `finally` (and killed if the
 * bench ends first), and the CPU they used, read from /proc.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A started process: its lines of standard output so far, and a wait for one of them. */
export interface Child {
  process: ChildProcess;
  lines: string[];
  /** Resolves with the first line (seen or to come) that matches, rejects when the process exits or the time runs out first. */
  line(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((child) => child.kill('SIGKILL')));

/** Starts `node SCRIPT ...args`, standard error passed through. `onLine` sees each line of standard output as it comes. */
export function startNode(script: string, args: string[], onLine: (line: string) => void = () => {}): Child {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  live.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (live.delete(child), resolve(code))));
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      onLine(line);
    }
    waiting.forEach((wake) => wake());
  });
  const line = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
      const look = () => {
        for (const l of lines) {
          const match = pattern.exec(l);
          if (match) return done(undefined, match);
        }
      };
      const done = (error?: Error, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        waiting.delete(look);
        if (match) resolve(match);
        else reject(error);
      };
      waiting.add(look);
      void exited.then((code) => done(new Error(`exited (${code}) before a line matching ${pattern}`)));
      look();
    });
  return { process: child, lines, line, exited };
}

/** SIGTERM, then SIGKILL if it has not exited within 3 s. */
export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const late = setTimeout(() => child.process.kill('SIGKILL'), 3000);
  await child.exited;
  clearTimeout(late);
}

/** A loopback port free at the time of asking (the tests' helper). */
export { freePort } from '../src/test-support/processes.js';

/** Clock ticks per second, the unit of a process's CPU times in /proc/PID/stat. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Fields of /proc/PID/stat after the command's name, from the third (state). */
function statFields(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user plus system) a running process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU seconds of this process's children that have exited (and been waited for) so far: a child's whole CPU, read after it ends. */
export function endedChildrenCpuSeconds(): number {
  const fields = statFields('self');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}
