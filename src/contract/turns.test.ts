/**
 * Lanes overlap their requests and nothing else: whatever order the answers come back in, the
 * lanes' code runs in the same order; writes to one key never overlap; `alone` has the wire to
 * itself; an error of one lane is thrown once every lane has ended.
 */
import { describe, expect, it } from 'vitest';
import { Turns } from './turns.js';

/** A request that takes `ms` (a timer), counting how many are in flight at once. */
function wire() {
  let inFlight = 0;
  const seen = { max: 0, log: [] as string[] };
  const request = (name: string, ms: number) => async () => {
    inFlight++;
    seen.max = Math.max(seen.max, inFlight);
    seen.log.push(`start ${name}`);
    await new Promise((r) => setTimeout(r, ms));
    inFlight--;
    seen.log.push(`end ${name}`);
    return name;
  };
  return { request, seen, inFlight: () => inFlight };
}

/** Three lanes of three requests each, answered after the delays `ms(lane, step)`; the order their code ran in. */
async function threeLanes(ms: (lane: number, step: number) => number) {
  const turns = new Turns();
  const { request, seen } = wire();
  const order: string[] = [];
  const lane = (l: number) => async () => {
    for (let step = 0; step < 3; step++) {
      order.push(`${l}.${step}`);
      expect(await turns.send(request(`${l}.${step}`, ms(l, step)))).toBe(`${l}.${step}`);
    }
  };
  await turns.run([lane(0), lane(1), lane(2)], 3);
  return { order, seen };
}

describe('turns', () => {
  it('overlaps the requests of the lanes and runs their code in the same order whatever order the answers come in', async () => {
    const fastFirst = await threeLanes((l) => 1 + l * 5);
    const slowFirst = await threeLanes((l) => 11 - l * 5);
    expect(fastFirst.seen.max).toBe(3);
    expect(slowFirst.seen.max).toBe(3);
    expect(slowFirst.order).toEqual(fastFirst.order);
    expect(fastFirst.order).toEqual(['0.0', '1.0', '2.0', '0.1', '1.1', '2.1', '0.2', '1.2', '2.2']);
    // The requests were sent in that order too.
    expect(slowFirst.seen.log.filter((l) => l.startsWith('start'))).toEqual(fastFirst.order.map((o) => `start ${o}`));
  });

  it('runs more tasks than lanes, a task that ends making room for the next', async () => {
    const turns = new Turns();
    const { request, seen } = wire();
    const done: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((i) => async () => {
      for (let step = 0; step <= i % 2; step++) await turns.send(request(`${i}.${step}`, 2));
      done.push(i);
    });
    await turns.run(tasks, 2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(seen.max).toBe(2);
  });

  it('never overlaps two writes to one key, and tells a lane that others wrote to it meanwhile', async () => {
    const turns = new Turns();
    const { request, seen } = wire();
    const othersSeen: number[] = [];
    const writer = (name: string) => async () => {
      for (let step = 0; step < 2; step++) await turns.send(request(`${name}.${step}`, 2), 'pets');
    };
    const reader = async () => {
      // Answered before its first request: not the write lane a sent in this very round, which may reach the server after the read.
      const before = turns.writesByOthers('pets', true);
      await turns.send(request('read.0', 2));
      await turns.send(request('read.1', 2));
      othersSeen.push(before, turns.writesByOthers('pets'));
    };
    await turns.run([writer('a'), writer('b'), reader], 3);
    // Never two writes on the wire at once: each start of a write is followed by its own end before the next write starts.
    const writes = seen.log.filter((l) => !l.includes('read'));
    for (let i = 0; i < writes.length; i += 2) expect(writes[i + 1]).toBe(writes[i]!.replace('start', 'end'));
    expect(othersSeen[0]).toBe(0);
    expect(othersSeen[1]).toBeGreaterThan(0);
    expect(turns.writesByOthers('pets')).toBe(0); // outside a lane
  });

  it('gives a lane the wire to itself while it runs alone', async () => {
    const turns = new Turns();
    const { request, inFlight } = wire();
    const during: number[] = [];
    const busy = async () => {
      for (let step = 0; step < 4; step++) await turns.send(request(`busy.${step}`, 3));
    };
    const lonely = async () => {
      await turns.send(request('lonely.0', 1));
      await turns.alone(async () => {
        during.push(inFlight());
        await turns.send(request('lonely.1', 1));
        await turns.send(request('lonely.2', 1));
        during.push(inFlight());
      });
    };
    await turns.run([busy, lonely], 2);
    expect(during).toEqual([0, 0]);
  });

  it('sends at once outside lanes, and throws the first error of a lane once every lane has ended', async () => {
    const turns = new Turns();
    expect(turns.inLane).toBe(false);
    expect(await turns.send(async () => 'direct')).toBe('direct');
    const { request } = wire();
    let otherFinished = false;
    const failing = async () => {
      await turns.send(request('x', 1));
      throw new Error('lane failed');
    };
    const other = async () => {
      for (let step = 0; step < 3; step++) await turns.send(request(`o.${step}`, 2));
      otherFinished = true;
    };
    await expect(turns.run([failing, other], 2)).rejects.toThrow('lane failed');
    expect(otherFinished).toBe(true);
  });
});
