import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { parseManifestText } from '../model/index.js';
import { applySourceEdits } from './source-apply.js';

const MIB = 1_048_576;
let dir: string;
beforeEach(() => {
  dir = createTempDir('hub-source-apply-');
});
afterEach(() => removeTempDir(dir));

describe('applySourceEdits', () => {
  it('writes a manifest over 8 MiB under the limit it was read with, and only under it', () => {
    const path = join(dir, '.hub.yml');
    // Comment lines cost no parse budget: a valid manifest past 8 MiB that stays quick.
    const text = `${`# ${'x'.repeat(1022)}\n`.repeat(9 * 1024)}workspace:\n  name: w\n  projects:\n    - name: p\n      repos: [{name: r, path: r}]\n`;
    writeFileSync(path, text);
    const { manifest } = parseManifestText(text, path, { maxBytes: 16 * MIB });
    const edits = { add: [{ project: 'p', entry: { name: 'r2', path: 'r2' } }], update: [], remove: [] };
    expect(() => applySourceEdits(path, manifest, edits)).toThrow(/the limit is 8 MiB/);
    applySourceEdits(path, manifest, edits, 16 * MIB);
    expect(readFileSync(path, 'utf8')).toMatch(/name: r2/);
  });
});
