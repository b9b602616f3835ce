import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError } from './errors.js';
import { readFileBounded, resolveReal, tryReadFileBounded, writeFileUnder } from './safe-fs.js';

let base: string;
let root: string;
let outside: string;
let sock: Server;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hub-safe-fs-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'sub', 'a.txt'), 'hello');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'leak'));
  symlinkSync(outside, join(root, 'outdir'));
  symlinkSync(join(root, 'sub', 'a.txt'), join(root, 'inlink'));
  symlinkSync('/dev/zero', join(root, 'zero'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  execFileSync('mkfifo', [join(outside, 'fifo')]);
  symlinkSync(join(outside, 'fifo'), join(root, 'fifo-link'));
  sock = createServer();
  await new Promise<void>((r) => sock.listen(join(root, 'sock'), r));
});
afterAll(async () => {
  await new Promise((r) => sock.close(r));
  rmSync(base, { recursive: true, force: true });
});

describe('tryReadFileBounded', () => {
  it('reads a regular file, through an inside symlink too', () => {
    const r = tryReadFileBounded(join(root, 'inlink'), { maxBytes: 100, root });
    expect(r).toMatchObject({ ok: true, truncated: false, path: join(root, 'sub', 'a.txt') });
    expect(r.ok && r.bytes.toString()).toBe('hello');
  });

  it.each([
    ['a FIFO', 'fifo'],
    ['/dev/zero', 'zero'],
    ['a folder', 'sub'],
    ['a socket', 'sock'],
  ])('refuses %s without reading or blocking (no root: symlinks followed)', (_what, name) => {
    expect(tryReadFileBounded(join(root, name), { maxBytes: 100 })).toMatchObject({
      ok: false,
      rule: 'regular_file',
    });
  });

  it('refuses a FIFO reached through a symlink, with no root', () => {
    expect(tryReadFileBounded(join(root, 'fifo-link'), { maxBytes: 100 })).toMatchObject({
      ok: false,
      rule: 'regular_file',
    });
  });

  it('under a root, refuses a real path outside it before opening anything', () => {
    for (const p of [
      'leak',
      'outdir/secret.txt',
      'fifo-link',
      'zero',
      '../outside/secret.txt',
      join(outside, 'secret.txt'),
    ])
      expect(
        tryReadFileBounded(p.startsWith('/') ? p : join(root, p), { maxBytes: 100, root }),
        p,
      ).toMatchObject({
        ok: false,
        rule: 'inside_root',
      });
    // Relative paths are taken from the root.
    expect(tryReadFileBounded('sub/a.txt', { maxBytes: 100, root }).ok).toBe(true);
    expect(tryReadFileBounded('leak', { maxBytes: 100, root }).ok).toBe(false);
  });

  it('reports a missing file as such', () => {
    expect(tryReadFileBounded(join(root, 'nope'), { maxBytes: 10, root })).toMatchObject({
      ok: false,
      rule: 'exists',
    });
  });

  it('caps on the bytes read, not on the size stat reports', () => {
    writeFileSync(join(root, 'ten'), '0123456789');
    expect(tryReadFileBounded(join(root, 'ten'), { maxBytes: 10 }).ok).toBe(true);
    expect(tryReadFileBounded(join(root, 'ten'), { maxBytes: 9 })).toMatchObject({
      ok: false,
      rule: 'max_size',
    });
    const head = tryReadFileBounded(join(root, 'ten'), { maxBytes: 4, truncate: true });
    expect(head.ok && [head.bytes.toString(), head.truncated]).toEqual(['0123', true]);
    // /proc files are regular files whose stat size is 0 whatever they hold.
    if (existsSync('/proc/self/status')) {
      expect(tryReadFileBounded('/proc/self/status', { maxBytes: 16 })).toMatchObject({
        ok: false,
        rule: 'max_size',
      });
      const all = tryReadFileBounded('/proc/self/status', { maxBytes: 1 << 20 });
      expect(all.ok && all.bytes.length).toBeGreaterThan(16);
    }
  });

  it('reads files larger than one chunk whole', () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'a');
    writeFileSync(join(root, 'big'), big);
    const r = tryReadFileBounded(join(root, 'big'), { maxBytes: 4 * 1024 * 1024 });
    expect(r.ok && r.bytes.equals(big)).toBe(true);
  });
});

describe('readFileBounded', () => {
  it('throws a ValidationError naming the field, the value and the rule', () => {
    let err: unknown;
    try {
      readFileBounded(join(root, 'leak'), {
        maxBytes: 10,
        root,
        field: 'notes_file',
        shown: 'leak',
        insideRule: 'inside_workspace',
        rootName: 'the workspace',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HubError);
    expect(err).toMatchObject({
      code: 'validation',
      details: { field: 'notes_file', value: 'leak', rule: 'inside_workspace' },
    });
    expect((err as Error).message).toContain('outside the workspace');
  });
});

describe('resolveReal', () => {
  it('returns the real path inside the root, for paths that do not exist yet too', () => {
    expect(resolveReal(root, 'inlink')).toBe(join(root, 'sub', 'a.txt'));
    expect(resolveReal(root, 'sub/new/deeper.txt')).toBe(join(root, 'sub', 'new', 'deeper.txt'));
    expect(resolveReal(root, join(root, 'sub'))).toBe(join(root, 'sub'));
  });
  it('refuses escapes: outside symlinks, .., absolute paths outside, a missing root', () => {
    for (const p of [
      'leak',
      'outdir',
      'outdir/new/x',
      '..',
      '../outside',
      '/etc/hostname',
      'sub/../../outside',
    ])
      expect(resolveReal(root, p), p).toBeUndefined();
    expect(resolveReal(join(base, 'missing'), 'x')).toBeUndefined();
  });
});

describe('writeFileUnder', () => {
  it('writes inside, creating folders', () => {
    const p = writeFileUnder(root, 'made/here/x.txt', 'ok');
    expect(readFileSync(p, 'utf8')).toBe('ok');
  });
  it('refuses a write that a symlinked parent would lead outside', () => {
    expect(() => writeFileUnder(root, 'outdir/planted.txt', 'x')).toThrow(/outside/);
    expect(() => writeFileUnder(root, 'outdir/new/planted.txt', 'x')).toThrow(/outside/);
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new'))).toBe(false);
  });
});

describe('tryReadFileBounded of a walked path', () => {
  const walked = (p: string) => tryReadFileBounded(p, { maxBytes: 1024, root, walked: true });

  it('reads a regular file the walk found', () => {
    const r = walked(join(root, 'sub', 'a.txt'));
    expect(r.ok && r.bytes.toString()).toBe('hello');
  });

  it('still refuses a symlink, a FIFO and a path through a symlinked folder', () => {
    expect(walked(join(root, 'leak'))).toMatchObject({ ok: false, rule: 'inside_root' });
    expect(walked(join(root, 'fifo'))).toMatchObject({ ok: false, rule: 'regular_file' });
    // A folder swapped for a symlink after the walk: what was opened lies outside the root.
    expect(walked(join(root, 'outdir', 'secret.txt'))).toMatchObject({ ok: false, rule: 'inside_root' });
  });
});
