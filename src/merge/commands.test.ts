import { describe, expect, it } from 'vitest';
import { thrown } from '../../test/fixtures/index.js';
import { commandArgv, redactOutput, runCommand } from './commands.js';
import { regenerateRulesFor } from './regenerate.js';
import { mergeSettings } from './settings.js';

describe('merge commands', () => {
  it('splits a string into words as a shell would, without being one', () => {
    expect(commandArgv(`npm run "lint all" -- --max='0' src/*.ts`, 'f')).toEqual([
      'npm',
      'run',
      'lint all',
      '--',
      '--max=0',
      'src/*.ts',
    ]);
    expect(commandArgv(['echo', '$(id)', '; rm'], 'f')).toEqual(['echo', '$(id)', '; rm']);
  });

  it.each([
    ['npm test && rm -rf /', "operator '&&'"],
    ['make | tee log', "operator '|'"],
    ['echo $HOME', '$variable'],
    ['echo hi # note', 'comment'],
    ['', 'needs a program'],
  ])('refuses %j, naming the config key', (spec, why) => {
    const e = thrown(() => commandArgv(spec, 'merge.validators[2]'));
    expect(e.message).toContain('merge.validators[2]');
    expect(e.message).toContain(why);
    expect(e.details).toMatchObject({ field: 'merge.validators[2]', rule: 'argv_without_shell' });
  });

  it('reads merge.* once: commands split, globs checked, pattern and patterns both taken', () => {
    const s = mergeSettings({
      validators: ['npm test', { name: 'lint', command: ['npm', 'run', 'lint'], timeout_ms: 5 }],
      regenerate: [{ pattern: 'gen/**', patterns: ['*.lock'], command: 'make gen' }],
      timeout_ms: 100,
    });
    expect(s.validators).toEqual([
      { name: 'npm test', argv: ['npm', 'test'], timeoutMs: 100 },
      { name: 'lint', argv: ['npm', 'run', 'lint'], timeoutMs: 5 },
    ]);
    expect(regenerateRulesFor(['gen/a.ts', 'x.lock'], s.regenerate)).toHaveLength(1);
    expect(regenerateRulesFor(['gen/a.ts', 'src/x.ts'], s.regenerate)).toBeUndefined();
    const e = thrown(() =>
      mergeSettings({ validators: [], regenerate: [{ pattern: '[', command: 'x' }], timeout_ms: 1 }),
    );
    expect(e.details).toMatchObject({ field: 'merge.regenerate[0].pattern' });
  });

  it('masks secret environment values and URL credentials in output', () => {
    const env = { NPM_TOKEN: 'abcdef123456', SHORT_TOKEN: 'abc', PATH: '/usr/bin' };
    expect(redactOutput('t=abcdef123456 abc https://u:pw123456@h/x /usr/bin', env)).toBe(
      't=***NPM_TOKEN*** abc https://u:***3456@h/x /usr/bin',
    );
  });

  it('ends a command that outlives its timeout, its children too, and says so', async () => {
    const r = await runCommand(
      [
        'node',
        '-e',
        "require('child_process').spawn('sleep', ['30'], {stdio: 'inherit'}); setInterval(() => {}, 1000)",
      ],
      // biome-ignore lint/style/noProcessEnv: git and the commands must still find programs on the PATH of the test.
      { cwd: process.cwd(), env: { PATH: process.env.PATH }, timeoutMs: 300 },
    );
    expect(r).toMatchObject({ timed_out: true, signal: 'SIGKILL' });
    const missing = await runCommand(['hub-no-such-program-x'], {
      cwd: process.cwd(),
      env: {},
      timeoutMs: 1000,
    });
    expect(missing.exit_code).toBe(127);
  });
});
