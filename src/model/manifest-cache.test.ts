import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { ManifestCache } from './manifest-cache.js';
import type { Manifest } from './manifest-schema.js';

const MANIFEST: Manifest = {
  version: 1,
  workspace: {
    name: 'ws',
    projects: [
      {
        name: 'p',
        repos: [
          { name: 'a', path: 'a', components: [{ name: 'api', path: 'svc/api', kind: 'service' }] },
          { name: 'b', url: 'https://example.com/b.git', components: [{ name: 'ü-lib', path: 'lib' }] },
          { name: 'c', path: 'c' },
        ],
      },
      // Keys after `repos` keep their place: a cached manifest shows (config show --normalized) as the parsed one.
      {
        name: 'q',
        repos: [{ name: 'd', components: [{ name: 'x', path: 'x' }], path: 'd' }],
        description: 'after',
      },
    ],
  },
} as Manifest;

let dir: string;
let file: string;
beforeEach(() => {
  dir = createTempDir('hub-manifest-cache-');
  file = join(dir, '.hub.yml');
  writeFileSync(file, 'stand-in: the cache never parses this file\n');
});
afterEach(() => removeTempDir(dir));

/** A clock a minute ahead: the manifest looks old enough for its stat to vouch for it. */
const later = () => Date.now() + 60_000;
/** A hash function that counts its calls (a call means the file would be read). */
const counting = (calls: { n: number }, hash: string) => () => {
  calls.n++;
  return hash;
};

describe('ManifestCache', () => {
  it('gives back the stored manifest, components parsed on first access', () => {
    const cache = new ManifestCache(join(dir, 'cache'), 'b1', later);
    const calls = { n: 0 };
    cache.set(file, statSync(file), 'h1', MANIFEST, []);
    const hit = cache.get(file, statSync(file), counting(calls, 'h1'));
    expect(hit).toBeDefined();
    const project = hit!.manifest.workspace!.projects![0]!;
    // A project's repository entries are parsed on first access, not with the header.
    expect(Object.getOwnPropertyDescriptor(project, 'repos')?.get).toBeTypeOf('function');
    expect(JSON.stringify(hit!.manifest)).toBe(JSON.stringify(MANIFEST));
    expect(hit!.manifest.workspace!.projects![0]!.repos[1]!.components![0]!.name).toBe('ü-lib');
    expect(Object.keys(hit!.manifest.workspace!.projects![0]!.repos[0]!)).not.toContain('$components_at');
  });

  it('reads the blobs of the file its header came from, also after another process replaced the cache file', () => {
    const cache = new ManifestCache(join(dir, 'cache'), 'b1', later);
    cache.set(file, statSync(file), 'h1', MANIFEST, []);
    const hit = cache.get(file, statSync(file), () => 'h1');
    // A newer manifest cached meanwhile (written by rename): other offsets, other content.
    const other = structuredClone(MANIFEST);
    other.workspace!.projects![0]!.repos.unshift({ name: 'new', path: 'n'.repeat(500), components: [] });
    cache.set(file, statSync(file), 'h2', other, []);
    expect(JSON.stringify(hit!.manifest)).toBe(JSON.stringify(MANIFEST));
    expect(
      cache.get(file, statSync(file), () => 'h2')!.manifest.workspace!.projects![0]!.repos[0]!.name,
    ).toBe('new');
  });

  it('trusts an unchanged stat of a file that was old when hashed, without reading it', () => {
    const cache = new ManifestCache(join(dir, 'cache'), 'b1', later);
    const calls = { n: 0 };
    cache.set(file, statSync(file), 'h1', MANIFEST, []);
    expect(cache.get(file, statSync(file), counting(calls, 'h1'))).toBeDefined();
    expect(calls.n).toBe(0);
  });

  it('hashes a file that was racy (just written) when cached, and misses when the content differs', () => {
    const cache = new ManifestCache(join(dir, 'cache'), 'b1');
    cache.set(file, statSync(file), 'h1', MANIFEST, []);
    const calls = { n: 0 };
    expect(cache.get(file, statSync(file), counting(calls, 'h1'))).toBeDefined();
    expect(calls.n).toBe(1);
    expect(cache.get(file, statSync(file), () => 'h2')).toBeUndefined();
  });

  it('hashes again when the stat changed, and hits when the content is the same', () => {
    const cache = new ManifestCache(join(dir, 'cache'), 'b1', later);
    cache.set(file, statSync(file), 'h1', MANIFEST, []);
    const past = new Date(Date.now() - 120_000);
    utimesSync(file, past, past);
    const calls = { n: 0 };
    expect(cache.get(file, statSync(file), counting(calls, 'h1'))).toBeDefined();
    expect(calls.n).toBe(1);
    expect(cache.get(file, statSync(file), () => 'other')).toBeUndefined();
  });

  it('misses for another build and for a damaged cache file', () => {
    const cacheDir = join(dir, 'cache');
    new ManifestCache(cacheDir, 'b1').set(file, statSync(file), 'h1', MANIFEST, []);
    expect(new ManifestCache(cacheDir, 'b2').get(file, statSync(file), () => 'h1')).toBeUndefined();
    const [name] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, name!), '{"format":3,');
    expect(new ManifestCache(cacheDir, 'b1').get(file, statSync(file), () => 'h1')).toBeUndefined();
    writeFileSync(join(cacheDir, name!), 'no newline and no json');
    expect(new ManifestCache(cacheDir, 'b1').get(file, statSync(file), () => 'h1')).toBeUndefined();
  });
});
