import { describe, expect, it } from 'vitest';
import { freshVariant, mayBeUnique, namedProperties, typicalValues } from './variations.js';

describe('what the suite varies after a refusal', () => {
  it('tries small values for an unbounded integer, the lowest ones for a bounded one, and null where allowed', () => {
    expect(typicalValues({ type: 'integer' })).toEqual([1, 2, 3]);
    expect(typicalValues({ type: 'integer', minimum: 10, example: 12 })).toEqual([12, 10, 11]);
    expect(typicalValues({ type: 'integer', minimum: 0, exclusiveMinimum: true })).toEqual([1, 2, 3]);
    expect(typicalValues({ type: 'string', nullable: true, default: 'draft', enum: ['draft', 'done'] })).toEqual(['draft', 'done', null]);
    expect(typicalValues({ type: 'boolean' })).toEqual([true, false]);
  });

  it('reads the properties a server names in its answer as words, not inside other words', () => {
    const names = ['priority', 'slug', 'title', 'id'];
    expect(namedProperties('{"code":"CONSTRAINT","message":"priority must be between 1 and 3"}', names)).toEqual(['priority']);
    expect(namedProperties('Key (slug)=(hello) already exists; idle titles', names)).toEqual(['slug']);
  });

  it('tells values a server may keep unique by name or format, and makes fresh ones within maxLength', () => {
    expect(['slug', 'authorEmail', 'user_name', 'handle', 'apiKey', 'code', 'name'].every((name) => mayBeUnique(name, { type: 'string' }))).toBe(true);
    expect(mayBeUnique('contact', { type: 'string', format: 'email' })).toBe(true);
    expect(['title', 'priority', 'summary'].some((name) => mayBeUnique(name, { type: 'string' }))).toBe(false);
    expect(mayBeUnique('slug', { type: 'string', enum: ['a', 'b'] })).toBe(false);
    expect(freshVariant('hello-world', { type: 'string' }, 'ab12')).toBe('hello-world-ab12');
    expect(freshVariant('hello-world', { type: 'string', maxLength: 8 }, 'ab12')).toBe('hel-ab12');
    expect(freshVariant('ann@example.com', { type: 'string', format: 'email' }, 'ab12')).toBe('ann+ab12@example.com');
  });
});
