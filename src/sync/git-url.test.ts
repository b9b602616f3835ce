import { describe, expect, it } from 'vitest';
import { checkGitUrl, transportOf } from './git-url.js';

describe('clone URL transports', () => {
  it.each([
    ['https://example.com/org/repo.git', 'https'],
    ['ssh://git@example.com/org/repo.git', 'ssh'],
    ['git@example.com:org/repo.git', 'ssh'],
    ['git://example.com/org/repo.git', 'git'],
    ['file:///srv/git/repo.git', 'file'],
  ])('accepts %s as %s', (url, t) => {
    expect(transportOf(url)).toBe(t);
  });

  it.each([
    'ext::sh -c touch% /tmp/pwned',
    'fd::17',
    'http://example.com/org/repo.git',
    'ftp://example.com/repo',
    '-uhelp',
    'ssh://-oProxyCommand=touch%20x/repo',
    '/srv/git/repo.git',
    '../sibling',
    'https://example.com/a b',
    'transport::https://example.com/x',
  ])('refuses %s', (url) => {
    expect(transportOf(url)).toBeUndefined();
    expect(() => checkGitUrl(url)).toThrow(/rule git_url_transport/);
  });

  it('names the field, the value and the allowed transports', () => {
    try {
      checkGitUrl('ext::sh', 'workspace.projects[0].repos[0].url');
      expect.unreachable();
    } catch (err) {
      expect((err as { details: unknown }).details).toEqual({
        field: 'workspace.projects[0].repos[0].url',
        value: 'ext::sh',
        rule: 'git_url_transport',
        allowed: ['https', 'ssh', 'git', 'file'],
      });
    }
  });

  it('never echoes the password of a refused URL (message and details)', () => {
    try {
      checkGitUrl('http://alice:s3cretPW@example.com/x.git');
      expect.unreachable();
    } catch (err) {
      const e = err as { message: string; details: { value: string } };
      expect(`${e.message} ${JSON.stringify(e.details)}`).not.toContain('s3cretPW');
      expect(e.details.value).toMatch(/^http:\/\/alice:\*+.*@example\.com\/x\.git$/);
    }
  });
});
