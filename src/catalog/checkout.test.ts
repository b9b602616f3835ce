import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, writeManifest } from '../../test/fixtures/index.js';
import { parseManifestText } from '../model/index.js';
import { Catalog } from './catalog.js';
import { Checkouts, gitRefs, REPO_OUTSIDE_RULE } from './checkout.js';

let tmp: string;
let catalog: Catalog;

beforeAll(() => {
  tmp = createTempDir('hub-checkout-');
  const ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'p', 'in'), { recursive: true });
  mkdirSync(join(tmp, 'out', 'x'), { recursive: true });
  symlinkSync(join(ws, 'p', 'in'), join(ws, 'p', 'alias'));
  symlinkSync(join(tmp, 'out', 'x'), join(ws, 'p', 'away'));
  symlinkSync(join(tmp, 'nowhere'), join(ws, 'p', 'dangling'));
  // The manifest is reached through a symlinked folder: repositories inside it are still inside.
  symlinkSync(ws, join(tmp, 'ws-link'));
  const text = `workspace:
  name: w
  projects:
    - name: p
      repos:
        - { name: in, path: ./p/in }
        - { name: alias, path: ./p/alias }
        - { name: away, path: ./p/away }
        - { name: dangling, path: ./p/dangling }
        - { name: gone, path: ./p/gone }
        - { name: far, path: ../out/x }
        - { name: cloned, url: https://example.com/c.git }
`;
  const path = writeManifest(ws, text);
  catalog = new Catalog(parseManifestText(text, join(tmp, 'ws-link', '.hub.yml')));
  expect(path).toBe(join(ws, '.hub.yml'));
});
afterAll(() => removeTempDir(tmp));

const repo = (name: string) => catalog.repoById.get(`p/${name}`)!;

describe('Checkouts', () => {
  it('judges each repository on its real path against the real manifest folder', () => {
    const c = new Checkouts(catalog.file.root);
    expect(c.of(repo('in'))).toEqual({ state: 'present', dir: join(tmp, 'ws', 'p', 'in'), allowed: false });
    expect(c.of(repo('alias'))).toEqual({
      state: 'present',
      dir: join(tmp, 'ws', 'p', 'in'),
      allowed: false,
    });
    expect(c.of(repo('gone'))).toEqual({ state: 'missing', allowed: false });
    expect(c.of(catalog.repoById.get('p/cloned')!)).toEqual({ state: 'missing', allowed: false });
    for (const name of ['away', 'far', 'dangling']) {
      const got = c.of(repo(name));
      expect(got.state, name).toBe('outside');
      if (got.state === 'outside')
        expect(got.error.details).toMatchObject({ repository: `p/${name}`, rule: REPO_OUTSIDE_RULE });
    }
  });

  it('reads the allowed folders only when a repository lies outside, and honours them', () => {
    let reads = 0;
    const allowed = () => {
      reads++;
      return [join(tmp, 'out')];
    };
    const c = new Checkouts(catalog.file.root, allowed);
    c.of(repo('in'));
    expect(reads).toBe(0);
    expect(c.of(repo('away'))).toEqual({ state: 'present', dir: join(tmp, 'out', 'x'), allowed: true });
    expect(c.of(repo('far')).state).toBe('present');
    expect(c.of(repo('dangling')).state).toBe('outside');
    expect(reads).toBe(1);
  });

  it('require() refuses outside and reports missing; gitRefs leaves outside ones out', () => {
    const c = new Checkouts(catalog.file.root);
    expect(() => c.require(repo('away'))).toThrow(/outside the workspace/);
    expect(() => c.require(repo('gone'))).toThrow(/not checked out/);
    expect(gitRefs(c, catalog.repos).map((r) => r.id)).toEqual(['p/in', 'p/alias', 'p/gone', 'p/cloned']);
  });
});
