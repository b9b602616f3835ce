// Hostile .atlas/ folders (issue 30): a clone ships them, so each is refused cleanly (a validation or refusal
// error naming the file and the rule, exit 1), never followed out of the repository, never a crash: `.atlas` as a
// symbolic link, a symbolic link inside it, a symlinked generated/ that generate would write through, YAML nested
// deep, a list of 100,001 entries, an alias bomb, and an index a clone planted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A committed git repository with one Python file and a generated atlas. */
async function repoWithAtlas(kit) {
  const dir = join(kit.tempDir('hub-hostile-atlas-'), 'repo');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.py'), 'def a():\n    return 1\n');
  const git = (args) =>
    execFileSync('git', ['-c', 'user.name=h', '-c', 'user.email=h@example.com', ...args], { cwd: dir });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'x']);
  const r = await kit.hub(['atlas', 'init', '--generate', '--json'], { cwd: dir });
  if (r.code !== 0) throw new Error(`atlas init failed: ${r.stderr}`);
  return dir;
}

const CONCEPTS = 'ontology/concepts.yaml';

/** A case: plant something in a fresh atlas, then run `hub atlas <args>` in the repository. */
const atlasCase = (name, plant, args = ['validate']) => ({
  name: `atlas ${args[0]}: ${name}`,
  expect: 'refused',
  async run(kit) {
    const dir = await repoWithAtlas(kit);
    const extra = await plant(dir, kit);
    const judged = kit.judgeCli(await kit.hub(['atlas', ...args, '--json'], { cwd: dir, timeoutMs: 60_000 }));
    if (extra?.check) {
      const leaked = extra.check();
      if (leaked) return { verdict: 'accepted', detail: leaked };
    }
    return judged;
  },
});

const replace = (dir, rel, text) => {
  rmSync(join(dir, '.atlas', rel), { force: true });
  writeFileSync(join(dir, '.atlas', rel), text);
};

export const cases = [
  atlasCase(
    '.atlas is a symbolic link out of the repository',
    (dir, kit) => {
      const out = kit.tempDir('hub-hostile-atlas-out-');
      rmSync(join(dir, '.atlas'), { recursive: true });
      symlinkSync(out, join(dir, '.atlas'));
    },
    ['generate'],
  ),
  atlasCase('a curated file that is a symbolic link to a file outside', (dir, kit) => {
    const out = join(kit.tempDir('hub-hostile-atlas-out-'), 'x.yaml');
    writeFileSync(out, 'apiVersion: atlas.hub.dev/v1alpha1\nentities: []\n');
    rmSync(join(dir, '.atlas', CONCEPTS));
    symlinkSync(out, join(dir, '.atlas', CONCEPTS));
  }),
  atlasCase(
    'the same link, read by a query',
    (dir) => {
      rmSync(join(dir, '.atlas', CONCEPTS));
      symlinkSync('/etc/hostname', join(dir, '.atlas', CONCEPTS));
    },
    ['query', 'Symbol'],
  ),
  atlasCase(
    'generated/ is a symbolic link out of the repository (generate would write through it)',
    (dir, kit) => {
      const out = kit.tempDir('hub-hostile-atlas-out-');
      rmSync(join(dir, '.atlas', 'generated'), { recursive: true });
      symlinkSync(out, join(dir, '.atlas', 'generated'));
      return {
        check: () => (existsSync(join(out, 'symbols.yaml')) ? `wrote ${out}/symbols.yaml` : undefined),
      };
    },
    ['generate'],
  ),
  atlasCase('YAML nested 100,000 levels', (dir) =>
    replace(
      dir,
      CONCEPTS,
      `apiVersion: atlas.hub.dev/v1alpha1\nentities: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
    ),
  ),
  atlasCase('a list of 100,001 entries', (dir) =>
    replace(dir, CONCEPTS, `apiVersion: atlas.hub.dev/v1alpha1\nentities:\n${'  - 1\n'.repeat(100_001)}`),
  ),
  atlasCase('an alias bomb', (dir) => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    replace(dir, CONCEPTS, `${lines.join('\n')}\n`);
  }),
  atlasCase(
    'an index planted by the clone, nested deep',
    (dir) => {
      writeFileSync(
        join(dir, '.atlas', 'index', 'entities.json'),
        `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      );
      replace(dir, CONCEPTS, 'apiVersion: atlas.hub.dev/v1alpha1\nentities: [1]\n');
    },
    ['query', 'Symbol'],
  ),
];
