// Hostile campaign documents and inputs (issue 29): a clone ships `_campaigns/` and `hub.config.yaml`, so their
// files are attacker-written. A correct hub refuses a slug that is a path, a campaign file that is a link to a file
// elsewhere, a campaigns folder outside the workspace, YAML alias bombs and oversized files, control characters in
// notes, and a board URL that would send a token in clear; it writes nothing for any of them.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const campaigns = (root) => {
  const dir = join(root, '_campaigns');
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A CLI case on a fresh demo; `prepare` plants files first; the verdict is 'accepted' when `leak` finds a write. */
const cli = (name, args, { prepare, env, leak } = {}) => ({
  name: `CLI ${name}`,
  expect: 'refused',
  async run(kit) {
    const { root, manifestPath } = kit.demo();
    prepare?.(root);
    const judged = kit.judgeCli(await kit.hub(['-c', manifestPath, ...args, '--json'], { env }));
    const leaked = leak?.(root);
    return leaked ? { verdict: 'accepted', detail: leaked } : judged;
  },
});

const bomb = () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 0; i < 9; i++) {
    const [p, n] = [String.fromCharCode(97 + i), String.fromCharCode(98 + i)];
    lines.push(`${n}: &${n} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`);
  }
  return `slug: bomb\ntitle: x\n${lines.join('\n')}\n`;
};

export const cases = [
  cli(
    'campaign new with a slug that is a path',
    ['campaign', 'new', '--slug', '../../escape', '--title', 'x', '--repo', 'platform/identity'],
    { leak: (root) => (existsSync(join(root, '..', 'escape.yml')) ? 'wrote ../escape.yml' : undefined) },
  ),
  cli(
    'campaign status of a campaign file linked to /etc/passwd',
    ['campaign', 'status', '--slug', 'linked'],
    {
      prepare: (root) => symlinkSync('/etc/passwd', join(campaigns(root), 'linked.yml')),
    },
  ),
  cli('campaign list with HUB_WORKSPACE_CAMPAIGNS_PATH outside the workspace', ['campaign', 'list'], {
    env: { HUB_WORKSPACE_CAMPAIGNS_PATH: '../../..' },
  }),
  cli('campaign list with workspace.campaigns_path a link to /tmp', ['campaign', 'list'], {
    prepare: (root) => {
      symlinkSync('/tmp', join(root, 'linked-campaigns'));
      writeFileSync(join(root, 'hub.config.yaml'), 'workspace:\n  campaigns_path: linked-campaigns\n');
    },
  }),
  cli('campaign status of a YAML alias bomb', ['campaign', 'status', '--slug', 'bomb'], {
    prepare: (root) => writeFileSync(join(campaigns(root), 'bomb.yml'), bomb()),
  }),
  cli('campaign status of a 3 MiB campaign file', ['campaign', 'status', '--slug', 'big'], {
    prepare: (root) =>
      writeFileSync(join(campaigns(root), 'big.yml'), `slug: big\ntitle: x\ngoal: ${'y'.repeat(3 << 20)}\n`),
  }),
  cli(
    'campaign set with a control character in the note',
    ['campaign', 'set', '--slug', 'c', '--repo', 'platform/identity', '--note', 'a\u001b[2Jb'],
    {
      prepare: (root) =>
        writeFileSync(
          join(campaigns(root), 'c.yml'),
          'slug: c\ntitle: C\nrepos:\n  - {project: platform, repo: identity}\n',
        ),
    },
  ),
  cli('campaign board-sync to a plain-http board off loopback', ['campaign', 'board-sync', '--slug', 'c'], {
    prepare: (root) => {
      writeFileSync(join(campaigns(root), 'c.yml'), 'slug: c\ntitle: C\nrepos: []\n');
      writeFileSync(
        join(root, 'hub.config.yaml'),
        'providers:\n  github:\n    organization: acme\n    project: "1"\n',
      );
    },
    env: { HUB_GITHUB_GRAPHQL_URL: 'http://boards.example/graphql', HUB_GITHUB_TOKEN: 'ghp_secret' },
  }),
];
