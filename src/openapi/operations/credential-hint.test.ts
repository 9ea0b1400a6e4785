import { describe, expect, it } from 'vitest';
import type { Operation } from './operation.js';
import { credentialHint } from './credential-hint.js';

const op = (scheme: Record<string, unknown>) => ({ security: [[{ name: 's', scheme }]] }) as unknown as Operation;

describe('credential hints for the banner', () => {
  it('follow the first way the operation authenticates', () => {
    expect(credentialHint(op({ type: 'http', scheme: 'bearer' }), 'K')).toEqual({ text: 'Authorization: Bearer K', curl: { header: 'Authorization: Bearer K' } });
    expect(credentialHint(op({ type: 'http', scheme: 'basic' }), 'K')?.text).toBe(`Authorization: Basic ${Buffer.from('K:').toString('base64')}`);
    expect(credentialHint(op({ type: 'apiKey', in: 'header', name: 'X-API-Key' }), 'K')?.curl).toEqual({ header: 'X-API-Key: K' });
    expect(credentialHint(op({ type: 'apiKey', in: 'query', name: 'api key' }), 'K')).toEqual({ text: '?api key=K', curl: { query: 'api%20key=K' } });
    expect(credentialHint(op({ type: 'apiKey', in: 'cookie', name: 'session' }), 'K')?.curl).toEqual({ header: 'Cookie: session=K' });
    expect(credentialHint({ security: [] } as unknown as Operation, 'K')).toBeUndefined();
    expect(credentialHint(undefined, 'K')).toBeUndefined();
  });
});
