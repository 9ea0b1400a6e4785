/**
 * answerInBatches: answers made in one event-loop turn are held until that turn ends, then
 * released together and in order; failures still reach the caller.
 */
import { describe, expect, it } from 'vitest';
import { answerInBatches } from './serve.js';

const request = (path: string) => new Request(`http://mock.test${path}`);
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Lets every queued microtask run (several rounds, for promise chains), without ending the turn. */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('answerInBatches', () => {
  it('holds answers made in one turn until the turn ends, then releases them all, in the order they were made', async () => {
    const fetch = answerInBatches((req) => new Response(new URL(req.url).pathname));
    const released: string[] = [];
    const answers = ['/a', '/b', '/c'].map((path) => fetch(request(path)).then(async (response) => released.push(await response.text())));

    await microtasks();
    expect(released).toEqual([]);
    await Promise.all(answers);
    expect(released).toEqual(['/a', '/b', '/c']);
  });

  it('an answer that arrives later (a promise) is released at the end of the turn it arrives in', async () => {
    let finish!: (response: Response) => void;
    const fetch = answerInBatches((req) => (req.url.endsWith('/slow') ? new Promise<Response>((resolve) => (finish = resolve)) : new Response('fast')));
    const released: string[] = [];
    const slow = fetch(request('/slow')).then(async (response) => released.push(await response.text()));
    await fetch(request('/fast')).then(async (response) => released.push(await response.text()));
    expect(released).toEqual(['fast']);

    await endOfTurn();
    finish(new Response('slow'));
    await microtasks();
    expect(released).toEqual(['fast']);
    await slow;
    expect(released).toEqual(['fast', 'slow']);
  });

  it('a fetch that throws, or whose promise rejects, rejects the answer', async () => {
    const thrown = answerInBatches(() => {
      throw new Error('thrown');
    });
    const rejected = answerInBatches(() => Promise.reject(new Error('rejected')));
    await expect(thrown(request('/'))).rejects.toThrow('thrown');
    await expect(rejected(request('/'))).rejects.toThrow('rejected');
  });
});
