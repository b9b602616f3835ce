import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { integratorGone } from './merge-deps.js';

describe('integratorGone', () => {
  it('is true only for a process of this machine that no longer exists', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const host = hostname();
    expect(integratorGone(`${host}:${gone.stdout}`, host)).toBe(true);
    expect(integratorGone(`${host}:${process.pid}`, host)).toBe(false);
    expect(integratorGone(`elsewhere:${gone.stdout}`, host)).toBe(false);
    expect(integratorGone('nonsense', host)).toBe(false);
    expect(integratorGone(`${host}:-1`, host)).toBe(false);
  });
});
