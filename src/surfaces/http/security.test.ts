import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostAllowed, hostName, isLoopbackHost, originAllowed, tokenMatches } from './security.js';

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses in every spelling', () => {
    for (const h of [
      'localhost',
      'LocalHost',
      'localhost.',
      'app.localhost',
      '127.0.0.1',
      '127.255.0.9',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '128.0.0.1',
      'localhost.evil.com',
      'evil-localhost',
      '::ffff:10.0.0.1',
      '::2',
      'example.com',
      '',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('holds for every address of 127/8 and no other IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isLoopbackHost(ip)).toBe(ip.startsWith('127.'));
      }),
    );
  });
});

describe('hostAllowed', () => {
  it('takes the host name from a Host header with or without port', () => {
    expect(hostName('[::1]:8787')).toBe('::1');
    expect(hostName('Example.COM:80')).toBe('example.com');
    expect(hostName('localhost')).toBe('localhost');
  });

  it('accepts loopback and the allowed hosts (name, or name:port exactly), nothing else', () => {
    const allowed = ['hub.internal', 'other.internal:9999'];
    for (const h of [
      'localhost:8787',
      '127.0.0.1',
      '[::1]:1',
      'hub.internal',
      'HUB.internal:8787',
      'other.internal:9999',
    ])
      expect(hostAllowed(h, allowed), h).toBe(true);
    for (const h of [
      undefined,
      '',
      'evil.com',
      'other.internal',
      'other.internal:1',
      'hub.internal.evil.com',
      '10.0.0.1:8787',
    ])
      expect(hostAllowed(h, allowed), String(h)).toBe(false);
  });

  it('never accepts a DNS name that is not loopback or allowed', () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65535 }), (d, port) => {
        fc.pre(!/(^|\.)localhost$/i.test(d));
        expect(hostAllowed(`${d}:${port}`, [])).toBe(false);
      }),
    );
  });
});

describe('originAllowed', () => {
  it('allows no Origin and same-origin only', () => {
    expect(originAllowed(undefined, '127.0.0.1:8787')).toBe(true);
    expect(originAllowed('http://127.0.0.1:8787', '127.0.0.1:8787')).toBe(true);
    expect(originAllowed('https://hub.example.com', 'hub.example.com')).toBe(true);
    for (const o of [
      'http://evil.com',
      'http://localhost:8787',
      'http://127.0.0.1:8788',
      'null',
      'file://',
      'chrome-extension://x',
      'garbage',
    ])
      expect(originAllowed(o, '127.0.0.1:8787'), o).toBe(false);
    expect(originAllowed('http://127.0.0.1:8787', undefined)).toBe(false);
  });
});

describe('tokenMatches', () => {
  it('accepts exactly `Bearer <token>` (scheme case-insensitive)', () => {
    expect(tokenMatches('Bearer abc', 'abc')).toBe(true);
    expect(tokenMatches('bearer   abc ', 'abc')).toBe(true);
    for (const h of [
      undefined,
      '',
      'abc',
      'Bearer',
      'Bearer ',
      'Bearer abcd',
      'Bearer ab',
      'Basic abc',
      'Bearer ABC',
    ])
      expect(tokenMatches(h, 'abc'), String(h)).toBe(false);
  });

  it('never accepts another token', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        fc.pre(a.trim() !== b.trim() && a.trim() !== '' && !/\s/.test(a) && !/\s/.test(b));
        expect(tokenMatches(`Bearer ${b}`, a)).toBe(false);
        expect(tokenMatches(`Bearer ${a}`, a)).toBe(true);
      }),
    );
  });
});
