// A host API that misbehaves (a compromised mirror, a wrong HUB_GITHUB_API_URL): these answers are made up here,
// not recorded, on loopback servers; the providers' real HTTP code reads them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerConfig } from './provider-config.js';
import { MAX_INDEXED_REPOS, MAX_PAGE_BYTES } from './provider-http.js';
import { listNamespace } from './providers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
async function serve(handler: Handler): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  const s = createServer((req, res) => {
    hits.push(`${req.url} ${req.headers.authorization ?? ''}`);
    handler(req, res);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, hits };
}
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const TOKEN = 'ghp_hostileToken_0123456789';
const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const repo = (name: string, ns = 'acme') => ({
  id: name,
  name,
  full_name: `${ns}/${name}`,
  owner: { login: ns },
});
let other: { base: string; hits: string[] };
let host: { base: string; hits: string[] };
const list = (org: string) =>
  listNamespace(providerConfig('github', { HUB_GITHUB_API_URL: host.base, GITHUB_TOKEN: TOKEN }), org, 'org');

beforeAll(async () => {
  other = await serve((_req, res) => json(res, [repo('stolen')]));
  host = await serve((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/orgs/away/repos')
      return json(res, [repo('a')], { link: `<${other.base}/orgs/away/repos?page=2>; rel="next"` });
    if (path === '/orgs/moved/repos') {
      res.writeHead(302, { location: `${other.base}/orgs/moved/repos` });
      return res.end();
    }
    if (path === '/orgs/huge/repos') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = ' '.repeat(1024 * 1024);
      for (let i = 0; i <= MAX_PAGE_BYTES / chunk.length; i++) res.write(chunk);
      return res.end('[]');
    }
    if (path === '/orgs/deep/repos') return json(res, `[${'['.repeat(200_000)}${']'.repeat(200_000)}]`);
    if (path === '/orgs/names/repos')
      return json(res, [
        repo('ok'),
        repo('..'),
        { ...repo('x'), name: '../../etc', full_name: 'acme/../../etc' },
        { ...repo('y'), name: 'a/b', full_name: 'acme/a/b' },
        { ...repo('z'), full_name: '../other/z' },
        'not an object',
        null,
      ]);
    if (path === '/orgs/many/repos')
      return json(
        res,
        Array.from({ length: MAX_INDEXED_REPOS + 10 }, (_, i) => repo(`r${i}`, 'many')),
        { link: `<${host.base}/orgs/many/repos?page=2>; rel="next"` },
      );
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not Found"}');
  });
});

describe('a hostile provider API', () => {
  it('never follows a next page to another origin: the token stays with the API', async () => {
    await expect(list('away')).rejects.toMatchObject({ details: { rule: 'provider_same_origin' } });
    expect(other.hits).toEqual([]);
  });

  it('never follows a redirect (to another origin or not)', async () => {
    await expect(list('moved')).rejects.toMatchObject({ details: { rule: 'provider_error', status: 302 } });
    expect(other.hits).toEqual([]);
  });

  it('stops reading a page past the size limit', async () => {
    await expect(list('huge')).rejects.toMatchObject({ details: { rule: 'provider_too_large' } });
  });

  it('keeps only repositories whose name and namespace are names (no traversal, no nesting, no junk)', async () => {
    const r = await list('names');
    expect(r.repos.map((x) => x.identity)).toEqual(['github://acme/ok']);
    expect(r.rejected).toBe(6);
    const deep = await list('deep');
    expect(deep).toMatchObject({ repos: [], rejected: 1 });
  });

  it('stores at most MAX_INDEXED_REPOS repositories and says the listing was truncated', async () => {
    const r = await list('many');
    expect(r.repos).toHaveLength(MAX_INDEXED_REPOS);
    expect(r.truncated).toBe(true);
  });
});
