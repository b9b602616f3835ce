import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHub } from './run-hub.js';

// Runs the built CLI (in the test daemon, the warm path users take) on hostile manifests: one clear line on stderr, exit 1, no stack trace.

const ROOT = resolve(import.meta.dirname, '..');

let dir: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }
  dir = mkdtempSync(join(tmpdir(), 'hub-cli-hostile-'));
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hub(file: string, args: string[]) {
  const r = runHub(['-c', file, ...args], { cwd: dir, env: { HUB_AGENT_MODE: 'true', HUB_DEBUG: '' } });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

const STACK_FRAME = /^\s+at /m;

interface Case {
  name: string;
  content: string | Uint8Array;
  /** Text the message must contain: a line number, or the limit where a line makes no sense. */
  expect: string;
}

const CASES: Case[] = [
  {
    name: 'bad indentation',
    content: 'workspace:\n  name: a\n  projects:\n    - name: p\n   repos: []\n',
    expect: 'line 5',
  },
  { name: 'duplicate key', content: 'workspace:\n  name: a\n  name: b\n', expect: 'line 3' },
  {
    name: 'alias bomb',
    content: `${'abcdefghi'
      .split('')
      .map(
        (n, i, all) =>
          `${n}: &${n} [${Array(9)
            .fill(i === 0 ? 'lol' : `*${all[i - 1]}`)
            .join(', ')}]`,
      )
      .join('\n')}\n`,
    expect: 'line 2',
  },
  {
    name: 'deep flow nesting',
    content: `workspace: {}\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    expect: 'line 2',
  },
  { name: 'deep compact nesting', content: `workspace: {}\nx:\n${'- '.repeat(10_000)}x\n`, expect: 'line 3' },
  {
    name: 'non-UTF-8 bytes',
    content: Buffer.concat([
      Buffer.from('workspace:\n  name: é\n  description: '),
      Buffer.from([0xc3, 0x28, 0x0a]),
    ]),
    expect: 'line 3',
  },
  { name: 'wrong type', content: 'workspace:\n  name: w\n  projects: {}\n', expect: 'line 3' },
  { name: 'a scalar', content: 'hello\n', expect: 'line 1' },
  {
    name: 'size limit',
    content: `workspace:\n  description: ${'x'.repeat(10 * 1024 * 1024)}\n`,
    expect: '8 MiB',
  },
];

describe('hub on hostile manifests', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      let file: string;
      beforeAll(() => {
        file = join(dir, `${c.name.replace(/\W+/g, '-')}.hub.yml`);
        writeFileSync(file, c.content);
      });

      it('component list prints one error line and exits 1', () => {
        const r = hub(file, ['component', 'list']);
        expect(r.status).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr.startsWith('error: ')).toBe(true);
        expect(r.stderr).toContain(c.expect);
        expect(r.stderr).not.toMatch(STACK_FRAME);
      });

      it('component list --json prints the error object', () => {
        const r = hub(file, ['component', 'list', '--json']);
        expect(r.status).toBe(1);
        expect(r.stdout).not.toMatch(STACK_FRAME);
        expect(r.stderr).not.toMatch(STACK_FRAME);
        const body = JSON.parse(r.stdout) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('validation');
        expect(body.error.message).toContain(c.expect);
      });

      it('config validate lists the problem and exits 1', () => {
        const r = hub(file, ['config', 'validate']);
        expect(r.status).toBe(1);
        expect(r.stdout).toMatch(/problem\(s\) in /);
        expect(r.stdout).toContain(c.expect);
        expect(`${r.stdout}${r.stderr}`).not.toMatch(STACK_FRAME);
      });

      it('config validate --json reports valid: false with problems', () => {
        const r = hub(file, ['config', 'validate', '--json']);
        expect(r.status).toBe(1);
        const body = JSON.parse(r.stdout) as {
          valid: boolean;
          problems: Array<{ message: string; line?: number }>;
        };
        expect(body.valid).toBe(false);
        expect(body.problems.length).toBeGreaterThan(0);
        const line = /^line (\d+)$/.exec(c.expect);
        if (line) expect(body.problems.map((p) => p.line)).toContain(Number(line[1]));
        else expect(body.problems[0]!.message).toContain(c.expect);
        expect(r.stderr).not.toMatch(STACK_FRAME);
      });
    });
  }
});
