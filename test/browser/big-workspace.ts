// A generated workspace of many url-only repositories (5,000 by default) for the browser tests and benches of
// long lists: projects of 100 repositories, tags from small pools (team, tier, language and a flag), and a few
// checkout folders so `status:synced` has rows too. Deterministic: the same options write the same file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BigWorkspaceOptions {
  /** Repositories in all (default 5000). */
  repos?: number;
  /** Repositories per project (default 100). */
  perProject?: number;
  /** Every n-th repository gets an (empty) checkout folder, so it is present (default 250; 0: none). */
  presentEvery?: number;
}

export interface BigWorkspace {
  root: string;
  manifest: string;
  repos: number;
  projects: string[];
  /** Ids (`project/repo`) of the repositories with a checkout folder. */
  present: string[];
}

export const TEAMS = [
  'platform',
  'payments',
  'search',
  'growth',
  'infra',
  'data',
  'mobile',
  'identity',
] as const;
export const TIERS = ['critical', 'standard', 'experimental'] as const;
export const LANGUAGES = ['typescript', 'go', 'python', 'java', 'rust'] as const;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Project `p` of `count`: `<team>-<nn>`. */
export function projectName(p: number, count: number): string {
  return `${TEAMS[p % TEAMS.length]}-${pad(p, String(count - 1).length)}`;
}

/** Writes `<root>/.hub.yml` (and the checkout folders) and says what it wrote. */
export function writeBigWorkspace(root: string, opts: BigWorkspaceOptions = {}): BigWorkspace {
  const repos = opts.repos ?? 5000;
  const perProject = opts.perProject ?? 100;
  const presentEvery = opts.presentEvery ?? 250;
  const projectCount = Math.max(1, Math.ceil(repos / perProject));
  const width = String(repos - 1).length;
  const lines = ['workspace:', `  name: big-${repos}`, '  projects:'];
  const projects: string[] = [];
  const present: string[] = [];
  for (let p = 0; p < projectCount; p++) {
    const name = projectName(p, projectCount);
    projects.push(name);
    lines.push(
      `    - name: ${name}`,
      `      description: Generated project ${p} of the ${TEAMS[p % TEAMS.length]} team.`,
    );
    lines.push('      repos:');
    for (let i = p * perProject; i < Math.min(repos, (p + 1) * perProject); i++) {
      const repo = `repo-${pad(i, width)}`;
      const tags = [
        `team: ${TEAMS[(p + i) % TEAMS.length]}`,
        `tier: ${TIERS[i % TIERS.length]}`,
        `language: ${LANGUAGES[i % LANGUAGES.length]}`,
        ...(i % 7 === 0 ? ['public-api: true'] : []),
      ];
      lines.push(
        `        - name: ${repo}`,
        `          url: https://git.example.invalid/${name}/${repo}.git`,
        `          tags: { ${tags.join(', ')} }`,
      );
      if (presentEvery > 0 && i % presentEvery === 0) {
        mkdirSync(join(root, name, repo), { recursive: true });
        present.push(`${name}/${repo}`);
      }
    }
  }
  mkdirSync(root, { recursive: true });
  const manifest = join(root, '.hub.yml');
  writeFileSync(manifest, `${lines.join('\n')}\n`);
  return { root, manifest, repos, projects, present };
}
