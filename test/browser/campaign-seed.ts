// Campaigns for the browser tests, made through the real CLI over real git repositories: `rename-flag` (four rows:
// one merged, two with open merge requests, one blocked; each repository with its campaign branch, one of them
// conflicting with its target) and `tidy-readme` (two pending rows). One row's `mr` and one board item's `url` are
// then written into the file by hand as a hostile clone would ship them (`javascript:`), which the CLI refuses.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { branchWith, buildWorkspace, createTempDir, git } from '../fixtures/index.js';
import { hubIn } from './coord-seed.js';

export const REPOS = ['api', 'web', 'worker', 'docs'] as const;
export const GOOD_MR = 'https://git.example/shop/api/pull/12';
export const HOSTILE_MR = 'javascript:alert(document.domain)';
export const BOARD_URL = 'https://boards.example/shop/items/41';
export const GOAL =
  'Rename the `flag` key to `feature_flag` everywhere; keep reading the old key for a release.';
export const LESSON = 'The worker reads the flag at start-up: restart it after the deploy.';

export interface CampaignWorkspace {
  root: string;
  file: string;
  repoDirs: Record<string, string>;
}

export function seedCampaigns(): CampaignWorkspace {
  const root = createTempDir('hub-campaigns-ui-');
  const ws = buildWorkspace({
    root,
    name: 'campaigns',
    projects: [
      { name: 'shop', repos: REPOS.map((name) => ({ name, files: { 'config.yml': 'flag: old\n' } })) },
    ],
  });
  writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  for (const r of REPOS) {
    const dir = ws.repoDirs[`shop/${r}`]!;
    branchWith(dir, 'campaign/rename-flag', 'main', { 'config.yml': 'feature_flag: new\n' });
    // A train never moves a checked-out target: the checkouts stand on a detached HEAD, as an agent's would.
    git(dir, ['checkout', '-q', '--detach']);
  }
  // Someone changed the same line on web's main meanwhile: landing web conflicts.
  const web = ws.repoDirs['shop/web']!;
  git(web, ['checkout', '-q', 'main']);
  writeFileSync(join(web, 'config.yml'), 'flag: theirs\n');
  git(web, ['commit', '-q', '-am', 'web: flag theirs']);
  git(web, ['checkout', '-q', '--detach']);

  const hub = (...args: string[]) => hubIn(root, args);
  hub(
    'campaign',
    'new',
    '--slug',
    'rename-flag',
    '--title',
    'Rename the flag',
    ...REPOS.flatMap((r) => ['--repo', `shop/${r}`]),
    '--goal',
    GOAL,
    '--reference',
    'shop/api',
  );
  hub('campaign', 'set', '--slug', 'rename-flag', '--status', 'active');
  hub('campaign', 'expand', '--slug', 'rename-flag');
  hub(
    'campaign',
    'set',
    '--slug',
    'rename-flag',
    '--repo',
    'shop/api',
    '--status',
    'mr-open',
    '--mr',
    GOOD_MR,
  );
  hub(
    'campaign',
    'set',
    '--slug',
    'rename-flag',
    '--repo',
    'shop/web',
    '--status',
    'mr-open',
    '--mr',
    'https://git.example/shop/web/pull/7',
  );
  hub(
    'campaign',
    'set',
    '--slug',
    'rename-flag',
    '--repo',
    'shop/worker',
    '--status',
    'blocked',
    '--note',
    'waiting on the platform team to release the config loader',
  );
  hub(
    'campaign',
    'set',
    '--slug',
    'rename-flag',
    '--repo',
    'shop/docs',
    '--status',
    'merged',
    '--mr',
    'https://git.example/shop/docs/pull/3',
  );
  hub('campaign', 'lesson', 'add', '--slug', 'rename-flag', '--text', LESSON, '--repo', 'shop/worker');
  hub(
    'campaign',
    'new',
    '--slug',
    'tidy-readme',
    '--title',
    'Tidy the READMEs',
    '--repo',
    'shop/api',
    '--repo',
    'shop/web',
  );

  // What a hostile clone could ship: web's merge request a javascript: URL, api's board item a real link.
  const file = join(root, '_campaigns', 'rename-flag.yml');
  const text = readFileSync(file, 'utf8');
  const webMr = 'mr: https://git.example/shop/web/pull/7';
  if (!text.includes(webMr)) throw new Error(`the campaign file changed shape: ${text}`);
  writeFileSync(
    file,
    text
      .replace(webMr, `mr: "${HOSTILE_MR}"`)
      .replace(
        `mr: ${GOOD_MR}`,
        `mr: ${GOOD_MR}\n    work_item: { provider: github, id: "41", url: "${BOARD_URL}", state: In Review }`,
      ),
  );
  return { root, file, repoDirs: ws.repoDirs };
}
