import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, writeOrgIndex } from '../../test/fixtures/index.js';
import { readOrgIndexes } from './org-store.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeTempDir(d);
});

describe('reading stored org indexes', () => {
  it('reads what org index stores, and treats a file whose names climb or whose identity lies as absent', () => {
    const root = createTempDir('hub-org-store-');
    dirs.push(root);
    writeOrgIndex(root, 'github', 'acme', [{ name: 'api' }]);
    writeOrgIndex(root, 'gitlab', 'acme/platform', [{ name: 'ledger' }]);
    expect(readOrgIndexes(root).map((f) => f.namespace)).toEqual(['acme', 'acme/platform']);
    // A workspace clone can ship .hub/: its index is read with the rules the providers' answers get.
    writeOrgIndex(root, 'github', 'evil', [{ name: '../../etc' }]);
    writeOrgIndex(root, 'github', 'liar', [{ name: 'api' }]);
    const liar = join(root, '.hub', 'org', 'github', 'liar.json');
    writeFileSync(liar, readFileSync(liar, 'utf8').replace('github://liar/api', 'github://acme/api'));
    mkdirSync(join(root, '.hub', 'org', 'github', 'dir.json'));
    expect(readOrgIndexes(root).map((f) => f.namespace)).toEqual(['acme', 'acme/platform']);
  });
});
