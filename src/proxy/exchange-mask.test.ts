import { describe, expect, it } from 'vitest';
import { toBase64, utf8 } from '../core/bytes.js';
import type { DocumentObject } from '../openapi/document/objects.js';
import { exchangeMasker } from './exchange-mask.js';

const API = { openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {}, components: { securitySchemes: { q: { type: 'apiKey', in: 'query', name: 'sub' }, h: { type: 'apiKey', in: 'header', name: 'X-Partner' } } } } as unknown as DocumentObject;
const maskOf = exchangeMasker(API);

describe('the mask of an exchange', () => {
  it('masks a Basic credential\'s password and its base64 wherever they appear', () => {
    const mask = maskOf({ target: '/x', headers: { authorization: `Basic ${toBase64('ada:pa55-word-long')}` } });
    expect(mask.text(`pass=pa55-word-long b64=${toBase64('ada:pa55-word-long')}`)).toBe('pass=*** b64=***');
  });

  it('masks the values of declared and secret-named query parameters in a path whatever their length, and leaves the others', () => {
    const mask = maskOf({ target: '/x?sub=ab&access_token=cd&limit=5&sortKey=name', headers: {} });
    expect(mask.target('/x?sub=ab&access_token=cd&limit=5&sortKey=name')).toBe('/x?sub=***&access_token=***&limit=5&sortKey=***');
    expect(mask.target('/x?ACCESS%5FTOKEN=cd')).toBe('/x?ACCESS%5FTOKEN=***');
  });

  it('masks every cookie, declared and secret-named headers, and secret-named fields of a form body', () => {
    const mask = maskOf({ target: '/x', headers: { cookie: 'theme=dark-mode-long; sid=sess-0001', 'x-partner': 'partner-key-1', 'x-csrf-token': 'csrf-value-9' }, body: utf8('user=ada&password=hunter2-long') });
    expect(mask.text('dark-mode-long sess-0001 partner-key-1 csrf-value-9 hunter2-long ada')).toBe('*** *** *** *** *** ada');
  });

  it('masks what the answer sets and holds under secret names, at any depth', () => {
    const headers = new Headers({ 'Set-Cookie': 'sid=answer-cookie-1; HttpOnly', 'X-Session-Id': 'answer-session-2' });
    const mask = maskOf({ target: '/x', headers: {} }, { headers, json: { data: [{ owner: { credentials: { pass: 'deep-secret-3', pin: 98765 } } }], next_page_token: 'page-token-4' } });
    expect(mask.text('answer-cookie-1 answer-session-2 deep-secret-3 98765 page-token-4')).toBe('*** *** *** *** page-token-4');
  });
});
