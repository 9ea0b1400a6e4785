import { describe, expect, it } from 'vitest';
import { FieldNames } from './field-names.js';

describe("a request's fields matched to a record's properties by name", () => {
  it('ignores case and separators (`FriendlyName` is `friendly_name`), and drops a field the record does not have', () => {
    const names = new FieldNames(['FriendlyName', 'To', 'StatusCallback', 'Extra'], ['friendly_name', 'to', 'status_callback', 'sid']);
    expect(names.map({ FriendlyName: 'Ops', To: '+1', StatusCallback: 'https://x', Extra: 1 })).toEqual([
      ['friendly_name', 'Ops'],
      ['to', '+1'],
      ['status_callback', 'https://x'],
    ]);
    expect([...names.reached]).toEqual(['friendly_name', 'to', 'status_callback']);
  });

  it('gives a property spelled exactly like a field that field alone, and a field every property spelled like it', () => {
    const names = new FieldNames(['to', 'To', 'FriendlyName'], ['to', 'FriendlyName', 'friendly_name']);
    expect([names.targets('to'), names.targets('To'), names.targets('FriendlyName')]).toEqual([['to'], undefined, ['FriendlyName', 'friendly_name']]);
  });

  it('matches any field by name when the request declares none, and keeps every field as named when the record declares none', () => {
    expect(new FieldNames([], ['account_sid']).map({ AccountSid: 'AC1', other: 2 })).toEqual([['account_sid', 'AC1']]);
    expect(new FieldNames([], []).map({ a: 1 })).toEqual([['a', 1]]);
    expect(new FieldNames(['a'], []).map({ a: 1, b: 2 })).toEqual([['a', 1]]);
    expect(new FieldNames(['a'], ['a']).map([1, 2])).toEqual([]);
  });
});
