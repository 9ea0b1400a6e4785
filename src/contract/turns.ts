/**
 * Lanes that overlap their requests and nothing else (issue 39, point 2: independent sequences in
 * parallel, a seed still sending the same requests). Each lane's code runs only while it holds the
 * turn; it gives the turn up when it sends a request, and gets it back in lane order once every
 * request of the round has been answered. So the values a lane draws from the run's one seeded
 * generator, the findings it reports and the requests it sends come in the same order on every run
 * of a seed, while the requests of a round are on the wire together.
 *
 * Writes to one collection (`writeKey`) never overlap: the second waits for the next round, so a
 * server numbering a collection's records gives them the same keys on every run. A lane can tell
 * whether other lanes wrote to a collection while it read it (`writesByOthers`): a list walked
 * meanwhile may rightly repeat or skip a record.
 *
 * Code outside any lane (the fixed checks, the clean-up) sends at once, as if there were no lanes.
 *
 * @example
 * await turns.run([() => explore(pets), () => explore(orders)], 2); // both lanes' requests overlap
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Lane {
  /** The scheduler it belongs to. */
  readonly turns: Turns;
  /** Resolved when the scheduler hands the lane the turn. */
  turn: Deferred;
  /** Resolved when the lane gives the turn back: it sent a request, waits for a write, or ended. */
  yielded: Deferred;
  ended: boolean;
  /** True while the lane runs alone (`alone`): it keeps the turn through its requests. */
  alone: boolean;
  /** Writes this lane sent, per write key. */
  writes: Map<string, number>;
  /** Whatever the lane keeps of its own (its exchanges, for the steps that sent them). */
  readonly own: unknown[];
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The lane the code runs in. One for the module: every AsyncLocalStorage Node keeps enabled slows every later promise, so none is made per run. */
const currentLane = new AsyncLocalStorage<Lane>();

export class Turns {
  /** The requests of the round under way, and the write keys it has sent to. */
  private inFlight: Promise<unknown>[] = [];
  private roundWrites = new Set<string>();
  /** Writes sent by any lane, per write key; and as they were when the round under way began (all of them answered). */
  private readonly writes = new Map<string, number>();
  private answeredWrites = new Map<string, number>();

  /** True while the caller runs in a lane. */
  get inLane(): boolean {
    return this.lane() !== undefined;
  }

  /**
   * Runs the tasks, at most `lanes` at once, each in a lane; a task that ends makes room for the
   * next. Resolves when all have ended, rejecting with the first error any threw (the others run to
   * their end first).
   */
  async run(tasks: Array<() => Promise<void>>, lanes: number): Promise<void> {
    if (this.inLane) throw new Error('Turns.run inside a lane');
    const queue = [...tasks];
    const active: Lane[] = [];
    const errors: unknown[] = [];
    const start = () => {
      const task = queue.shift()!;
      const lane: Lane = { turns: this, turn: deferred(), yielded: deferred(), ended: false, alone: false, writes: new Map(), own: [] };
      void lane.turn.promise
        .then(() => currentLane.run(lane, task))
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          lane.ended = true;
          lane.yielded.resolve();
        });
      return lane;
    };
    while (active.length < Math.max(1, lanes) && queue.length) active.push(start());
    while (active.length) {
      for (let i = 0; i < active.length; i++) {
        let lane = active[i]!;
        lane.turn.resolve();
        await lane.yielded.promise;
        // A lane that ended gives its place (and the rest of this turn) to the next task.
        while (lane.ended && queue.length) {
          lane = active[i] = start();
          lane.turn.resolve();
          await lane.yielded.promise;
        }
      }
      for (let i = active.length - 1; i >= 0; i--) if (active[i]!.ended) active.splice(i, 1);
      await Promise.allSettled(this.inFlight);
      this.inFlight = [];
      this.roundWrites = new Set();
      this.answeredWrites = new Map(this.writes);
    }
    if (errors.length) throw errors[0];
  }

  /**
   * Sends a request (`send` starts it): at once outside a lane; in a lane, in its turn, giving the
   * turn up until the round is answered. A write to a key another lane wrote to in this round
   * waits for the next round first.
   */
  async send<T>(send: () => Promise<T>, writeKey?: string): Promise<T> {
    const lane = this.lane();
    if (!lane) return send();
    if (writeKey !== undefined) {
      while (!lane.alone && this.roundWrites.has(writeKey)) await this.giveUp(lane);
      this.roundWrites.add(writeKey);
      this.writes.set(writeKey, (this.writes.get(writeKey) ?? 0) + 1);
      lane.writes.set(writeKey, (lane.writes.get(writeKey) ?? 0) + 1);
    }
    if (lane.alone) return send();
    const sent = send();
    // Awaited by the lane after the round; handled here so that a rejection before then is not "unhandled".
    this.inFlight.push(sent.catch(() => undefined));
    await this.giveUp(lane);
    return sent;
  }

  /**
   * Runs `body` with no other lane's request on the wire: the requests of the round under way are
   * answered first, and the caller keeps the turn until `body` ends. Outside a lane, runs it.
   * A failure that another lane's requests may have caused is tried again alone: what shows alone
   * is the server's and can be shrunk, confirmed and replayed by itself.
   */
  async alone<T>(body: () => Promise<T>): Promise<T> {
    const lane = this.lane();
    if (!lane || lane.alone) return body();
    await Promise.allSettled(this.inFlight);
    lane.alone = true;
    try {
      return await body();
    } finally {
      lane.alone = false;
    }
  }

  /**
   * Writes other lanes have sent to `writeKey` (0 outside a lane): `answered`, those answered
   * before the round under way (a request the caller sends now cannot have been answered before
   * them), else all, those on the wire included. Other lanes wrote while the caller's requests were
   * out when the second, taken after its last answer, exceeds the first, taken before its first
   * request.
   */
  writesByOthers(writeKey: string, answered = false): number {
    const lane = this.lane();
    if (!lane) return 0;
    // A lane sends one request a round, and none yet in the round it holds the turn of: its own writes are all answered.
    return ((answered ? this.answeredWrites : this.writes).get(writeKey) ?? 0) - (lane.writes.get(writeKey) ?? 0);
  }

  /** What the current lane keeps of its own, or undefined outside a lane. */
  own<T>(): T[] | undefined {
    return this.lane()?.own as T[] | undefined;
  }

  /** The lane of this scheduler the caller runs in, if any. */
  private lane(): Lane | undefined {
    const lane = currentLane.getStore();
    return lane?.turns === this ? lane : undefined;
  }

  /** Gives the turn back and waits for it in the next round. */
  private async giveUp(lane: Lane): Promise<void> {
    lane.turn = deferred();
    const yielded = lane.yielded;
    lane.yielded = deferred();
    yielded.resolve();
    await lane.turn.promise;
  }
}
