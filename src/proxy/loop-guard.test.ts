/**
 * A proxy whose upstream is itself: refused before it starts when the upstream is its own listening
 * address, and, whatever the address, a request that comes back through it answered 508 Loop
 * Detected instead of being forwarded again (the in-process proxy below is its own upstream).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { AUTH, FIXTURES, petstoreDocument } from '../test-support/petstore.js';
import { loopGuard, upstreamIsItself } from './loop-guard.js';
import { buildProxy, type Proxy, type ProxyExchange } from './proxy.js';

describe('upstreamIsItself', () => {
  it('finds the proxy’s own port on a loopback or any-address name, or on the host it listens on', () => {
    for (const upstream of ['http://127.0.0.1:4022', 'http://localhost:4022/api', 'http://[::1]:4022', 'http://0.0.0.0:4022', 'http://127.0.0.2:4022', 'http://LOCALHOST:4022'])
      expect(upstreamIsItself(upstream, { host: '127.0.0.1', port: 4022 }), upstream).toBe(true);
    expect(upstreamIsItself('http://192.168.1.5:4022', { host: '192.168.1.5', port: 4022 })).toBe(true);
    expect(upstreamIsItself('http://127.0.0.1:4022', { host: '0.0.0.0', port: 4022 })).toBe(true);
    expect(upstreamIsItself('http://localhost', { host: '::', port: 80 })).toBe(true);
    expect(upstreamIsItself('https://localhost', { host: '127.0.0.1', port: 443 })).toBe(true);
  });

  it('lets another port, another host, or a free port (0) through', () => {
    expect(upstreamIsItself('http://127.0.0.1:3000', { host: '127.0.0.1', port: 4022 })).toBe(false);
    expect(upstreamIsItself('http://api.example.com:4022', { host: '127.0.0.1', port: 4022 })).toBe(false);
    expect(upstreamIsItself('http://192.168.1.6:4022', { host: '192.168.1.5', port: 4022 })).toBe(false);
    expect(upstreamIsItself('http://localhost:4022', { host: '192.168.1.5', port: 4022 })).toBe(false);
    expect(upstreamIsItself('http://127.0.0.1', { host: '127.0.0.1', port: 0 })).toBe(false);
    expect(upstreamIsItself('http://127.0.0.1', { host: '127.0.0.1', port: 4010 })).toBe(false); // port 80
  });
});

describe('loopGuard', () => {
  it('adds its own hop to Via, and knows it again in a request that comes back, not in another proxy’s', () => {
    const guard = loopGuard();
    const via = guard.via('1.1 edge-cache');
    expect(via).toMatch(/^1\.1 edge-cache, 1\.1 petstore-mock-kit-[0-9a-f]{16}$/);
    expect(guard.cameBack(via)).toBe(true);
    expect(guard.cameBack(guard.via(undefined))).toBe(true);
    expect(guard.cameBack(loopGuard().via('1.1 edge-cache'))).toBe(false);
    expect(guard.cameBack(undefined)).toBe(false);
  });
});

describe('a proxy whose upstream is itself', () => {
  it('answers 508 Loop Detected in the document’s error shape after one hop, instead of forwarding again', async () => {
    const exchanges: ProxyExchange[] = [];
    let forwarded = 0;
    const proxy: Proxy = buildProxy(await petstoreDocument(), {
      upstream: 'http://127.0.0.1:4010',
      // Its own fetch: what it sends on comes back to it, as through a socket to its own port.
      fetch: async (input, init) => {
        forwarded++;
        return proxy.fetch(new Request(input, init));
      },
      // Only a bound on a hang: a loop that is not stopped ends in a 504 here.
      timeoutMs: 5_000,
      onExchange: (entry) => exchanges.push(entry),
      mock: { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES },
    });
    const response = await proxy.fetch(new Request('http://127.0.0.1:4010/pets/1', { headers: AUTH }));
    const body = await response.json();
    expect({ status: response.status, body }).toEqual({ status: 508, body: { code: 'LOOP_DETECTED', message: expect.stringContaining('came back through this proxy'), status: 508 } });
    expect(forwarded).toBe(1);
    expect(exchanges.map((e) => [e.status, e.answeredBy])).toEqual([
      [508, 'proxy'],
      [508, 'upstream'],
    ]);
    await proxy.close();
  });
});
