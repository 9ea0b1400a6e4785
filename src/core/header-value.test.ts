import { describe, expect, it } from 'vitest';
import { sendableHeaderValue } from './header-value.js';

describe('sendableHeaderValue', () => {
  it.each([
    ['body.name', 'body.name'],
    ['body.a\r\nX-Injected: 1', 'body.a%0D%0AX-Injected: 1'],
    ['body.é\u2028', 'body.%C3%A9%E2%80%A8'],
    ['body.100%', 'body.100%25'],
    ['body.\ud800', 'body.%EF%BF%BD'],
    ['a\u0000b\tc', 'a%00b%09c'],
  ])('%j is sent as %j, which Headers takes as it is', (text, sent) => {
    expect(sendableHeaderValue(text)).toBe(sent);
    expect(new Headers({ 'X-Test': sendableHeaderValue(text) }).get('X-Test')).toBe(sent);
  });
});
