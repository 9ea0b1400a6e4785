/**
 * fast-check's commands over one collection's records: create, read (also after delete), replace
 * or merge, delete, and list with filters and pages. A command names a record of the sequence by
 * a number taken modulo the records it may act on, so fast-check can shrink it like any value.
 */
import fc from 'fast-check';
import { alive, deleted, type Filter, type ModelRecord, type SequenceModel } from './model.js';
import type { SequenceRunner } from './sequence-runner.js';

type Command = fc.AsyncCommand<SequenceModel, SequenceRunner>;

/** The record of `pick` among `records` (none when there is none). */
const nth = (records: ModelRecord[], pick: number) => (records.length ? records[pick % records.length] : undefined);

class Create implements Command {
  check = () => true;
  run = (model: SequenceModel, real: SequenceRunner) => real.create(model);
  toString = () => 'create';
}

class Read implements Command {
  constructor(readonly pick: number) {}
  check = (model: SequenceModel) => alive(model).length > 0;
  run = (model: SequenceModel, real: SequenceRunner) => real.readRecord(nth(alive(model), this.pick)!);
  toString = () => `read(${this.pick})`;
}

/** A read of a record the sequence deleted: gone, also after later requests (a create in between). */
class ReadGone implements Command {
  constructor(readonly pick: number) {}
  check = (model: SequenceModel) => deleted(model).length > 0;
  run = (model: SequenceModel, real: SequenceRunner) => real.readRecord(nth(deleted(model), this.pick)!);
  toString = () => `read-deleted(${this.pick})`;
}

class Update implements Command {
  constructor(
    readonly pick: number,
    readonly action: 'replace' | 'merge',
  ) {}
  check = (model: SequenceModel) => alive(model).length > 0;
  run = (model: SequenceModel, real: SequenceRunner) => real.update(nth(alive(model), this.pick)!, this.action);
  toString = () => `${this.action}(${this.pick})`;
}

class Delete implements Command {
  constructor(readonly pick: number) {}
  check = (model: SequenceModel) => alive(model).length > 0;
  run = (model: SequenceModel, real: SequenceRunner) => real.remove(nth(alive(model), this.pick)!);
  toString = () => `delete(${this.pick})`;
}

/**
 * A list filtered by the chosen filters, each with the value of one record of the sequence (alive
 * or deleted) and, for an enum, maybe a second value (a repeated filter matches any); unfiltered
 * when the sequence has no record yet.
 */
class List implements Command {
  constructor(
    readonly pick: number,
    readonly filters: string[],
    readonly second: boolean,
    readonly pageSize: number,
    private readonly enums: Record<string, unknown[]>,
  ) {}
  check = () => true;
  run = (model: SequenceModel, real: SequenceRunner) => {
    const subject = nth(model.records, this.pick);
    const filters: Filter[] = [];
    for (const name of subject ? this.filters : []) {
      const value = subject!.expected[name];
      if (value === undefined || value === null || typeof value === 'object') continue;
      const other = this.second ? this.enums[name]?.find((v) => v !== value) : undefined;
      filters.push({ name, values: other === undefined ? [value] : [value, other] });
    }
    return real.listRecords(model, filters, this.pageSize, subject);
  };
  toString = () => `list(${this.pick}, [${this.filters.join(',')}]${this.second ? ', two values' : ''}, pages of ${this.pageSize})`;
}

/** What the collection allows: which operations exist, its filters and the values an enum filter takes. */
export interface CommandShape {
  read: boolean;
  replace: boolean;
  merge: boolean;
  list: boolean;
  /** Filters of the list that repeat (an array parameter): these may take two values. */
  filters: string[];
  enums: Record<string, unknown[]>;
}

/** The commands fast-check draws sequences from, for one collection. */
export function commandArbitraries(shape: CommandShape): Array<fc.Arbitrary<Command>> {
  const pick = fc.nat({ max: 11 });
  // Creates and deletes twice as often as the rest: most promises need a record, many a deleted one.
  const arbitraries: Array<fc.Arbitrary<Command>> = [fc.constant(new Create()), fc.constant(new Create()), pick.map((p) => new Delete(p)), pick.map((p) => new Delete(p))];
  if (shape.read) arbitraries.push(pick.map((p) => new Read(p)), pick.map((p) => new ReadGone(p)));
  for (const action of ['replace', 'merge'] as const) if (shape[action]) arbitraries.push(pick.map((p) => new Update(p, action)));
  if (shape.list) {
    // Every filter at once as often as any subset: the promise that filters combine with AND needs several.
    arbitraries.push(
      fc
        .record({ pick, second: fc.boolean(), pageSize: fc.constantFrom(100, 2, 1) })
        .map(({ pick, second, pageSize }) => new List(pick, shape.filters, second, pageSize, shape.enums)),
    );
    arbitraries.push(
      fc
        .record({ pick, filters: fc.subarray(shape.filters), second: fc.boolean(), pageSize: fc.constantFrom(100, 2, 1) })
        .map(({ pick, filters, second, pageSize }) => new List(pick, filters, second, pageSize, shape.enums)),
    );
  }
  return arbitraries;
}
