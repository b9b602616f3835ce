import { describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { originParts, publicCloneUrl, readOrigins } from './origins.js';

describe('checkout origins', () => {
  it('keep no credentials: user and password of http(s), the password of others', () => {
    expect(publicCloneUrl('https://bot:ghp_SECRET@github.com/acme/a.git')).toBe(
      'https://github.com/acme/a.git',
    );
    expect(publicCloneUrl('https://ghp_SECRET@github.com/acme/a')).toBe('https://github.com/acme/a');
    expect(publicCloneUrl('ssh://git:pw@host.example/acme/a.git')).toBe('ssh://git@host.example/acme/a.git');
    expect(publicCloneUrl('git@github.com:acme/a.git')).toBe('git@github.com:acme/a.git');
    expect(publicCloneUrl('  ')).toBeUndefined();
    expect(publicCloneUrl('https://x/a b')).toBeUndefined();
  });

  it('name the namespace and repository of a url (subgroups kept)', () => {
    expect(originParts('git@gitlab.com:acme/platform/tool.git')).toEqual({
      namespace: 'acme/platform',
      repo: 'tool',
    });
    expect(originParts('https://github.com/Acme/Web/')).toEqual({ namespace: 'Acme', repo: 'Web' });
    expect(originParts('https://github.com/solo')).toBeUndefined();
    expect(originParts('/srv/git/x.git')).toBeUndefined();
  });

  it('are read from each checkout in batches; one without an origin is left out', async () => {
    const dir = createTempDir('hub-origins-');
    try {
      const dirs = ['a', 'b', 'c'].map((n) => makeGitRepo(`${dir}/${n}`));
      git(dirs[0]!, ['remote', 'add', 'origin', 'https://github.com/acme/a.git']);
      git(dirs[2]!, ['remote', 'add', 'origin', 'git@github.com:acme/c.git']);
      git(dirs[2]!, ['remote', 'add', 'upstream', 'https://github.com/other/c.git']);
      const got = await readOrigins(dirs);
      expect(Object.fromEntries(got)).toEqual({
        [dirs[0]!]: 'https://github.com/acme/a.git',
        [dirs[2]!]: 'git@github.com:acme/c.git',
      });
    } finally {
      removeTempDir(dir);
    }
  });
});
