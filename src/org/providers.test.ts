// The real GitHub and GitLab APIs cannot be reached from this machine: these tests run the providers' real HTTP
// code against a loopback server that answers recorded responses (test/fixtures/providers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderFixture, startProviderFixture } from '../../test/fixtures/index.js';
import { providerConfig } from './provider-config.js';
import { listNamespace } from './providers.js';

let fx: ProviderFixture;
const TOKEN = 'ghp_fixtureToken0123456789abcd';

beforeAll(async () => {
  fx = await startProviderFixture({ token: TOKEN });
});
afterAll(() => fx.close());

const env = (extra: Record<string, string> = {}) => ({
  HUB_GITHUB_API_URL: fx.github,
  HUB_GITLAB_API_URL: fx.gitlab,
  ...extra,
});

describe('GitHub provider', () => {
  it('lists an organization across pages (Link rel=next), sending the token from the environment', async () => {
    const before = fx.requests.length;
    const r = await listNamespace(providerConfig('github', env({ GITHUB_TOKEN: TOKEN })), 'acme', 'org');
    expect(r.pages).toBe(2);
    expect(r.repos.map((x) => x.identity)).toEqual([
      'github://acme/api',
      'github://acme/web',
      'github://acme/legacy-billing',
      'github://acme/api-fork',
      'github://acme/infra',
    ]);
    const api = r.repos[0]!;
    expect(api).toMatchObject({
      language: 'Go',
      topics: ['backend', 'grpc'],
      archived: false,
      fork: false,
      default_branch: 'main',
      pushed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(api.has).toEqual(expect.arrayContaining(['issues', 'license', 'description']));
    const seen = fx.requests.slice(before);
    expect(seen.map((q) => q.url)).toEqual([
      '/github/orgs/acme/repos?type=all&per_page=100',
      '/github/orgs/acme/repos?type=all&per_page=100&page=2',
    ]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.headers['x-github-api-version']).toBe('2022-11-28');
  });

  it('waits out a rate limit whose reset is near, then goes on', async () => {
    fx.rateLimitOnce.github = true;
    const r = await listNamespace(providerConfig('github', env()), 'acme', 'org');
    expect(r.rate_limited).toBe(1);
    expect(r.repos).toHaveLength(5);
  });

  it('fails with the reset time when the limit lasts long, and never echoes the token', async () => {
    const err = await listNamespace(
      providerConfig('github', env({ GITHUB_TOKEN: TOKEN })),
      'limited',
      'org',
    ).catch((e) => e);
    expect(err.details).toMatchObject({ rule: 'provider_rate_limited', provider: 'github' });
    expect(err.message).toMatch(/resets at \d{4}-/);
    expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain(TOKEN);
  });

  it('answers bad credentials as unauthorized, naming the variable but not the token', async () => {
    const err = await listNamespace(
      providerConfig('github', env({ GITHUB_TOKEN: 'ghp_wrongToken_abcdef' })),
      'acme',
      'org',
    ).catch((e) => e);
    expect(err.code).toBe('unauthorized');
    expect(err.message).toMatch(/Bad credentials; check GITHUB_TOKEN/);
    expect(err.message).not.toContain('ghp_wrongToken_abcdef');
  });

  it('answers an unknown organization as not found', async () => {
    const err = await listNamespace(providerConfig('github', env()), 'nobody', 'org').catch((e) => e);
    expect(err.code).toBe('not_found');
  });
});

describe('GitLab provider', () => {
  it('lists a group with its subgroups across pages (X-Next-Page), token as PRIVATE-TOKEN', async () => {
    const before = fx.requests.length;
    const r = await listNamespace(
      providerConfig('gitlab', env({ GITLAB_TOKEN: TOKEN })),
      'acme/platform',
      'group',
    );
    expect(r.repos.map((x) => x.identity)).toEqual([
      'gitlab://acme/platform/payments',
      'gitlab://acme/platform/core/ledger',
      'gitlab://acme/platform/old-tools',
    ]);
    expect(r.repos[2]!.archived).toBe(true);
    expect(r.repos[0]!.topics).toEqual(['payments']);
    const seen = fx.requests.slice(before);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.url).toMatch(
      /^\/gitlab\/api\/v4\/groups\/acme%2Fplatform\/projects\?include_subgroups=true/,
    );
    expect(seen[1]!.url).toMatch(/page=2/);
    expect(seen[0]!.headers['private-token']).toBe(TOKEN);
  });

  it('waits out a 429 with Retry-After', async () => {
    fx.rateLimitOnce.gitlab = true;
    const r = await listNamespace(providerConfig('gitlab', env()), 'acme/platform', 'group');
    expect(r.rate_limited).toBe(1);
    expect(r.repos).toHaveLength(3);
  });
});

describe('provider configuration', () => {
  it('takes the base URL and token from the environment, and refuses plain http off loopback', () => {
    expect(providerConfig('github', {}).baseUrl).toBe('https://api.github.com');
    expect(providerConfig('gitlab', {}).baseUrl).toBe('https://gitlab.com/api/v4');
    expect(providerConfig('github', { GH_TOKEN: 'x1' }).tokenVariable).toBe('GH_TOKEN');
    expect(() => providerConfig('github', { HUB_GITHUB_API_URL: 'http://example.com/api' })).toThrow(
      /rule provider_api_url/,
    );
    expect(() => providerConfig('github', { HUB_GITHUB_API_URL: 'https://u:p@example.com' })).toThrow(
      /not in the URL/,
    );
  });

  it('refuses a namespace that is not a name', async () => {
    await expect(listNamespace(providerConfig('github', env()), '../x', 'org')).rejects.toThrow(/namespace/);
    await expect(listNamespace(providerConfig('github', env()), 'a/b', 'org')).rejects.toThrow(/namespace/);
  });
});
