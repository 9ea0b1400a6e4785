import { describe, expect, it } from 'vitest';
import { toBase64 } from '../../core/bytes.js';
import { secretMask } from './mask.js';

describe('the mask of a run\'s secrets', () => {
  const mask = secretMask({ token: 'a/b+c=token', headers: { Authorization: `Basic ${toBase64('ci-user:pa55word')}`, 'X-Trace': '42' } });

  it('masks the token as given, URL-encoded, inside a Basic credential and escaped in JSON', () => {
    expect(mask.text('Bearer a/b+c=token; ?key=a%2Fb%2Bc%3Dtoken; q=a%2Fb%2Bc%3Dtoken')).toBe('Bearer ***; ?key=***; q=***');
    expect(mask.text(`Basic ${toBase64('a/b+c=token:')}`)).toBe('Basic ***');
  });

  it('masks an -H value whole, the credentials after its scheme, and what a Basic credential encodes', () => {
    expect(mask.text(`got Basic ${toBase64('ci-user:pa55word')} from ci-user:pa55word, password pa55word`)).toBe('got *** from ***, password ***');
  });

  it('masks a secret cut short where a finding shortens what it quotes', () => {
    expect(mask.text('200 with body.text = "echo a/b+c=to..., documented')).toBe('200 with body.text = "echo ***..., documented');
    expect(mask.text('GET /a/b+c=tok')).toBe('GET /a/b+c=tok'); // not cut, a text of its own
  });

  it('leaves values too short to be secrets (masking 42 would garble every status that holds it)', () => {
    expect(mask.text('X-Trace: 42, status 422')).toBe('X-Trace: 42, status 422');
  });

  it('masks the message of an error and of its cause, and leaves one it cannot set', () => {
    const error = mask.error(new TypeError('fetch failed for a/b+c=token', { cause: new Error('Bearer a/b+c=token is invalid') })) as Error;
    expect([error.message, (error.cause as Error).message]).toEqual(['fetch failed for ***', 'Bearer *** is invalid']);
    expect((mask.error(new DOMException('aborted', 'AbortError')) as DOMException).message).toBe('aborted');
  });

  it('copies plain data with every string masked, and leaves what it does not own', () => {
    const date = new Date(0);
    expect(mask.value({ list: ['a/b+c=token', 3, { deep: 'x a/b+c=token' }], date })).toEqual({ list: ['***', 3, { deep: 'x ***' }], date });
  });
});
