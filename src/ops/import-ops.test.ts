import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { HubError } from '../infra/index.js';
import { importRepoManifest } from './import-ops.js';
import { createContext, invoke } from './index.js';

const SAMPLE = fileURLToPath(new URL('../../test/fixtures/repo-manifest-sample.xml', import.meta.url));

interface Result {
  source: string;
  output: string | null;
  written: boolean;
  counts: { projects: number; repos: number; includes_read: number; includes_missing: number };
  warnings: string[];
  text?: string;
  backup?: string | null;
}

let dir: string;
let logs: string[];
const run = (input: Record<string, unknown>, cwd = dir) =>
  invoke(
    importRepoManifest,
    createContext({ cwd, env: process.env, log: (l) => logs.push(l) }),
    input,
  ) as Promise<Result>;

async function failure(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}

beforeEach(() => {
  dir = createTempDir('hub-import-');
  logs = [];
  copyFileSync(SAMPLE, join(dir, 'default.xml'));
});
afterEach(() => removeTempDir(dir));

describe('import.repo-manifest', () => {
  it('prints the manifest without writing when no output is given', async () => {
    const r = await run({ file: 'default.xml' });
    expect(r).toMatchObject({ source: join(dir, 'default.xml'), output: null, written: false });
    expect(r.counts).toMatchObject({ projects: 11, repos: 30, includes_missing: 1 });
    expect(r.text).toMatch(/^# Imported by `hub import repo-manifest` from default.xml/);
    expect(r.text).toContain('url: https://android.googlesource.com/platform/frameworks/base');
    expect(logs.some((l) => l.startsWith('warning: ') && l.includes('snippets/lineage.xml'))).toBe(true);
    expect(existsSync(join(dir, '.hub.yml'))).toBe(false);
  });

  it('writes a manifest that hub loads, and refuses to overwrite it without force', async () => {
    const out = join(dir, 'ws', '.hub.yml');
    mkdirSync(join(dir, 'ws'));
    const r = await run({ file: 'default.xml', output: 'ws/.hub.yml' });
    expect(r).toMatchObject({ output: out, written: true });
    expect(r.text).toBeUndefined();

    const ws = createContext({ cwd: dir, env: { HUB_CACHE_DIR: 'off' }, definition: out }).workspace();
    expect(ws.catalog.repos).toHaveLength(30);
    expect(ws.catalog.repoById.get('frameworks/frameworks-base')?.url).toBe(
      'https://android.googlesource.com/platform/frameworks/base',
    );
    expect(ws.file.manifest.workspace?.name).toBe('default');

    writeFileSync(out, 'keep me\n');
    const err = await failure(run({ file: 'default.xml', output: 'ws/.hub.yml' }));
    expect(err.code).toBe('refused');
    expect(err.message).toContain('--force');
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');

    const forced = await run({ file: 'default.xml', output: 'ws/.hub.yml', force: true });
    expect(readFileSync(out, 'utf8')).toContain('name: frameworks');
    // --force never loses the file it replaces: a copy stays beside it.
    expect(forced.backup).toMatch(/\.hub\.yml\.bak-\d{8}T\d{6}Z$/);
    expect(readFileSync(forced.backup!, 'utf8')).toBe('keep me\n');
  });

  it('writes .hub.yml inside an output directory, and refuses a missing parent directory', async () => {
    const r = await run({ file: 'default.xml', output: '.' });
    expect(r.output).toBe(join(dir, '.hub.yml'));
    const err = await failure(run({ file: 'default.xml', output: 'no/such/dir/.hub.yml' }));
    expect(err.code).toBe('refused');
  });

  it('reads includes beside the manifest but never outside its directory', async () => {
    mkdirSync(join(dir, 'manifests', 'snippets'), { recursive: true });
    copyFileSync(SAMPLE, join(dir, 'manifests', 'default.xml'));
    writeFileSync(
      join(dir, 'manifests', 'snippets', 'lineage.xml'),
      '<manifest>\n<project name="LineageOS/extra" path="vendor/extra" remote="aosp"/>\n<include name="../../outside.xml"/>\n</manifest>\n',
    );
    writeFileSync(join(dir, 'outside.xml'), '<manifest><project name="x" path="x/y"/></manifest>');
    const r = await run({ file: 'manifests/default.xml' });
    expect(r.counts).toMatchObject({ repos: 31, includes_read: 1, includes_missing: 1 });
    expect(r.text).toContain('name: vendor-extra');
    expect(r.text).not.toContain('x-y');
  });

  it('reports malformed XML and a missing file as validation errors naming the place', async () => {
    writeFileSync(join(dir, 'bad.xml'), '<manifest>\n  <project name="a">\n</manifest>\n');
    const bad = await failure(run({ file: 'bad.xml' }));
    expect(bad.code).toBe('validation');
    expect(bad.message).toMatch(
      /bad\.xml: line 3: <\/manifest> does not close <project> \(opened at line 2\)/,
    );
    expect(bad.details).toMatchObject({ line: 3 });

    const missing = await failure(run({ file: 'nope.xml' }));
    expect(missing.code).toBe('validation');
    expect(missing.message).toContain('nope.xml');

    const input = await failure(run({ file: '' }));
    expect(input.message).toMatch(/^file: /);
  });
});
