// Hostile input for the commands and edges of repo cards (issue 26): files in a cloned repository that declare
// commands point out of it (a symlinked package.json), block (a FIFO Makefile), are huge or bomb their parsers
// (noxfile.py of 50 MB, a CI workflow alias bomb, a pyproject.toml nested 100,000 deep, a Makefile line of
// 200,000 spaces), or smuggle a line break into a script name that `context switch` prints in a shell comment.
// A correct hub reads none of what lies outside, never hangs or crashes, and still prints its pack.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'hub-hostile-commands-secret-41c9';
const repoDir = (root, rel) => join(root, ...rel.split('/'));

/** Runs a tier-1 pack of the demo; accepted only when it is JSON, holds no secret and `check(pack)` passes. */
async function packCase(kit, root, check = () => undefined) {
  const r = await kit.hub(['-c', join(root, '.hub.yml'), 'context', 'pack', '--tier', '1', '--json'], {
    timeoutMs: 60_000,
  });
  const judged = kit.judgeCli(r);
  if (judged.verdict !== 'accepted') return judged;
  if (r.stdout.includes(SECRET))
    return { verdict: 'crash', detail: 'the pack holds a file from outside the checkout' };
  let p;
  try {
    p = JSON.parse(r.stdout);
  } catch {
    return { verdict: 'unclean', detail: 'stdout is not JSON' };
  }
  const problem = check(p);
  return problem
    ? { verdict: 'crash', detail: problem }
    : { verdict: 'accepted', detail: `${r.ms ?? '?'} ms` };
}

const plantCase = (name, plant, check) => ({
  name,
  expect: 'accepted',
  async run(kit) {
    const { root } = kit.demo();
    plant(root, kit);
    return packCase(kit, root, check);
  },
});

const gateway = (p) => p.cards.find((c) => c.repo === 'gateway');

export const cases = [
  plantCase(
    'package.json with scripts symlinked to a secret outside the repository (not read)',
    (root, kit) => {
      const outside = kit.tempDir('hub-hostile-commands-');
      writeFileSync(join(outside, 'package.json'), JSON.stringify({ scripts: { test: SECRET } }));
      symlinkSync(join(outside, 'package.json'), join(repoDir(root, 'platform/gateway'), 'package.json'));
    },
  ),
  plantCase(
    'Makefile that is a FIFO (no hang)',
    (root) => execFileSync('mkfifo', [join(repoDir(root, 'platform/gateway'), 'Makefile')]),
    (p) => (gateway(p)?.commands ? undefined : 'the card lost its commands'),
  ),
  plantCase('noxfile.py of 50 MB (not read)', (root) =>
    writeFileSync(
      join(repoDir(root, 'platform/gateway'), 'noxfile.py'),
      `@nox.session\ndef tests(s):\n    pass\n# ${'a'.repeat(50 * 1024 * 1024)}\n`,
    ),
  ),
  plantCase('Makefile with a line of 200,000 spaces (linear match)', (root) =>
    writeFileSync(
      join(repoDir(root, 'platform/gateway'), 'Makefile'),
      `a${' '.repeat(200_000)}\ntest:\n\ttrue\n`,
    ),
  ),
  plantCase('pyproject.toml nested 100,000 deep (parse, no stack overflow)', (root) =>
    writeFileSync(join(repoDir(root, 'platform/gateway'), 'pyproject.toml'), `x = ${'['.repeat(100_000)}\n`),
  ),
  plantCase('GitHub workflow with an alias bomb (aliases never expanded)', (root) => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    lines.push('jobs: *l');
    const dir = join(repoDir(root, 'platform/gateway'), '.github/workflows');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bomb.yml'), `${lines.join('\n')}\n`);
  }),
  {
    name: 'script name with a line break, printed by `context switch` in a shell comment (stays a comment)',
    expect: 'accepted',
    async run(kit) {
      const { root, manifestPath } = kit.demo();
      writeFileSync(
        join(repoDir(root, 'platform/gateway'), 'package.json'),
        JSON.stringify({ scripts: { 'test\ntouch /tmp/hub-owned': 'x', 'lint\r\necho owned': 'y' } }),
      );
      const r = await kit.hub(['-c', manifestPath, 'context', 'switch', 'platform', 'gateway']);
      const judged = kit.judgeCli(r);
      if (judged.verdict !== 'accepted') return judged;
      const loose = r.stdout.split('\n').filter((l) => l && !l.startsWith('export ') && !l.startsWith('# '));
      return loose.length
        ? { verdict: 'crash', detail: `lines a shell would run: ${loose.join(' | ').slice(0, 200)}` }
        : { verdict: 'accepted', detail: 'every prompt line is a comment' };
    },
  },
];
