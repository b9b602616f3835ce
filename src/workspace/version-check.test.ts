import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkVersion, compareVersions, type FetchLike } from './version-check.js';

let server: Server;
let base: string;
let npmLatest = '1.2.0';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hub-workspace/latest') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: 'hub-workspace', version: npmLatest }));
    } else if (req.url === '/releases/latest') {
      res.end(
        JSON.stringify({ tag_name: 'v1.3.0-rc.1', html_url: 'https://example.com/r', body: '## Notes' }),
      );
    } else if (req.url === '/hang/hub-workspace/latest') {
      // Never answers: the check must give up on its own.
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const opts = (over: Partial<Parameters<typeof checkVersion>[0]> = {}) => ({
  name: 'hub-workspace',
  installed: '1.2.0',
  npmRegistry: base,
  releasesUrl: `${base}/releases/latest`,
  offline: false,
  timeoutMs: 2000,
  includeNotes: false,
  fetch: globalThis.fetch as unknown as FetchLike,
  now: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

describe('compareVersions', () => {
  it('orders releases, prereleases and build metadata like semver', () => {
    const sorted = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0',
      '1.0.1',
      'v1.10.0',
    ];
    for (let i = 1; i < sorted.length; i++)
      expect(compareVersions(sorted[i - 1]!, sorted[i]!)).toBeLessThan(0);
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0);
    expect(compareVersions('1.0', '1.0.0')).toBeNaN();
  });
});

describe('checkVersion', () => {
  it('takes the newest answer of both sources', async () => {
    const r = await checkVersion(opts({ includeNotes: true }));
    expect(r).toMatchObject({ status: 'update_available', latest: '1.3.0-rc.1', notes: '## Notes' });
    expect(r.sources.map((s) => [s.source, s.status, s.latest])).toEqual([
      ['npm', 'ok', '1.2.0'],
      ['code_host', 'ok', '1.3.0-rc.1'],
    ]);
  });

  it('is up to date, or ahead, against the registry alone', async () => {
    expect((await checkVersion(opts({ releasesUrl: undefined }))).status).toBe('up_to_date');
    npmLatest = '1.1.9';
    expect((await checkVersion(opts({ releasesUrl: undefined }))).status).toBe('ahead');
    npmLatest = '1.2.0';
  });

  it('is unknown, with the reason, when no source answers', async () => {
    const r = await checkVersion(
      opts({ npmRegistry: `${base}/hang`, releasesUrl: 'http://127.0.0.1:9/releases', timeoutMs: 300 }),
    );
    expect(r.status).toBe('unknown');
    expect(r.latest).toBeNull();
    expect(r.reason).toContain('npm: no answer within 300 ms');
    expect(r.reason).toContain('code_host:');
  });

  it('never touches the network when offline', async () => {
    const r = await checkVersion(
      opts({
        offline: true,
        fetch: () => {
          throw new Error('network used');
        },
      }),
    );
    expect(r.status).toBe('unknown');
    expect(r.reason).toContain('HUB_OFFLINE');
    expect(r.sources.every((s) => s.status === 'skipped')).toBe(true);
  });

  it('treats a 404 or a malformed answer as a failed source', async () => {
    const r = await checkVersion(
      opts({ npmRegistry: `${base}/nowhere`, releasesUrl: `${base}/hub-workspace/latest` }),
    );
    expect(r.sources[0]).toMatchObject({ status: 'error', error: 'HTTP 404' });
    expect(r.sources[1]!.error).toContain('tag_name');
    expect(r.status).toBe('unknown');
  });
});
