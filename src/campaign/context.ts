import { compactCard, type Ladder, type RepoCard, type Shrink } from '../context/index.js';
import { runGit } from '../infra/index.js';
import type { Campaign, CampaignRow, Lesson } from './schema.js';
import { campaignObjectiveId, rowRef } from './schema.js';

/** Bounds of what the reference repository's history contributes. */
export const REFERENCE_LIMITS = {
  commits: 20,
  files: 100,
  subject_chars: 200,
  git_timeout_ms: 15_000,
} as const;

/** What changed in the reference implementation: its campaign branch against its base, or its recent log. */
export interface ReferenceChanges {
  /** `campaign_branch`: a local branch named for the campaign; `recent_log`: none found, the checkout's recent commits. */
  source: 'campaign_branch' | 'recent_log';
  branch: string | null;
  base: string | null;
  commits: Array<{ sha: string; date: string; subject: string }>;
  commits_total: number;
  /** Files the branch changes against its base (`M`, `A`, `D`, `R`...); empty for a recent log. */
  files: Array<{ status: string; path: string }>;
  files_total: number;
}

const git = async (dir: string, args: string[]) => {
  const r = await runGit(args, { cwd: dir, timeoutMs: REFERENCE_LIMITS.git_timeout_ms });
  return r.code === 0 ? r.stdout : undefined;
};

/**
 * The campaign branch of a checkout: `campaign/<slug>` when it exists, else the first (by name) local branch
 * whose name holds `campaign-<slug>` (task branches of its objectives) or ends in `/<slug>`.
 */
export function pickCampaignBranch(branches: readonly string[], slug: string): string | undefined {
  if (branches.includes(`campaign/${slug}`)) return `campaign/${slug}`;
  return [...branches]
    .sort()
    .find((b) => b.includes(`campaign-${slug}`) || b.endsWith(`/${slug}`) || b === slug);
}

async function baseOf(dir: string, branch: string, branches: readonly string[]): Promise<string | undefined> {
  const remoteHead = (
    await git(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'])
  )?.trim();
  if (remoteHead) return remoteHead;
  return ['main', 'master', 'trunk', 'develop'].find((b) => b !== branch && branches.includes(b));
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n)}…`);

/** The local branch names of the checkout at `dir` (one `for-each-ref`; none when git cannot tell). */
export async function localBranches(dir: string): Promise<string[]> {
  const list = await git(dir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']);
  return (list ?? '').split('\n').filter(Boolean);
}

/** The changes of the reference implementation's checkout at `dir`, within REFERENCE_LIMITS (real git). */
export async function referenceChanges(dir: string, slug: string): Promise<ReferenceChanges> {
  const branches = await localBranches(dir);
  const branch = pickCampaignBranch(branches, slug);
  const base = branch ? await baseOf(dir, branch, branches) : undefined;
  const tip = branch ? `refs/heads/${branch}` : 'HEAD';
  const range = base ? [`${base}..${tip}`] : [tip];
  const log = await git(dir, [
    'log',
    '--no-color',
    `--max-count=${REFERENCE_LIMITS.commits}`,
    '--format=%h%x1f%cI%x1f%s',
    ...range,
    '--',
  ]);
  const commits = (log ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', date = '', subject = ''] = line.split('\x1f');
      return { sha, date, subject: clip(subject, REFERENCE_LIMITS.subject_chars) };
    });
  const count = Number.parseInt((await git(dir, ['rev-list', '--count', ...range, '--'])) ?? '', 10);
  let files: ReferenceChanges['files'] = [];
  let files_total = 0;
  if (branch && base) {
    const diff = await git(dir, [
      'diff',
      '--no-color',
      '--no-renames',
      '--name-status',
      '-z',
      `${base}...${tip}`,
      '--',
    ]);
    const parts = (diff ?? '').split('\0').filter((p) => p !== '');
    const all: ReferenceChanges['files'] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) all.push({ status: parts[i]!, path: parts[i + 1]! });
    files_total = all.length;
    files = all.slice(0, REFERENCE_LIMITS.files);
  }
  return {
    source: branch ? 'campaign_branch' : 'recent_log',
    branch: branch ?? null,
    base: base ?? null,
    commits,
    commits_total: Number.isFinite(count) ? count : commits.length,
    files,
    files_total,
  };
}

/** What an agent working on one row of a campaign needs, fitted to a token budget. */
export interface CampaignContext {
  slug: string;
  title: string;
  status: Campaign['status'];
  goal: string | null;
  row: (CampaignRow & { objective_id: string }) | null;
  reference: { repo: string; card: RepoCard | null; changes: ReferenceChanges | null; note?: string } | null;
  repo_card: RepoCard | null;
  lessons: Lesson[];
  lessons_total: number;
  /** Merged rows with their merge requests: the change as other repositories took it. */
  examples: Array<{ repo: string; mr: string }>;
  dropped_sections: string[];
  max_tokens: number | null;
  token_estimate: number;
}

export interface ContextParts {
  campaign: Campaign;
  row: CampaignRow | null;
  reference: { repo: string; card: RepoCard | null; changes: ReferenceChanges | null; note?: string } | null;
  repoCard: RepoCard | null;
  maxTokens: number | null;
}

/** Most examples (merged rows) a context carries. */
export const CONTEXT_EXAMPLES = 10;

interface State {
  files: number;
  examples: number;
  commits: number;
  refCompact: boolean;
  repoCompact: boolean;
  lessons: number;
  refCard: boolean;
  repoCard: boolean;
}

/**
 * The context and every smaller form of it, for fitToBudget: the reference's changed files go first, then the
 * examples, the reference's commits, the cards' detail, the oldest lessons, and last the cards themselves.
 */
export function contextLadder(parts: ContextParts): Ladder<State, CampaignContext> {
  const { campaign, row, reference, repoCard } = parts;
  const changes = reference?.changes ?? null;
  const examples = campaign.repos
    .filter((r) => r.status === 'merged' && r.mr && (!row || rowRef(r) !== rowRef(row)))
    .slice(0, CONTEXT_EXAMPLES)
    .map((r) => ({ repo: rowRef(r), mr: r.mr! }));
  const lessons = campaign.lessons;
  const counted = (size: number, apply: (s: State, k: number) => void): Shrink<State> => ({ size, apply });
  const once = (when: boolean, apply: (s: State) => void): Shrink<State> => ({ size: when ? 1 : 0, apply });
  const shrinks: Array<Shrink<State>> = [
    counted(changes?.files.length ?? 0, (s, k) => {
      s.files -= k;
    }),
    counted(examples.length, (s, k) => {
      s.examples -= k;
    }),
    counted(changes?.commits.length ?? 0, (s, k) => {
      s.commits -= k;
    }),
    once(Boolean(reference?.card), (s) => {
      s.refCompact = true;
    }),
    once(Boolean(repoCard), (s) => {
      s.repoCompact = true;
    }),
    counted(lessons.length, (s, k) => {
      s.lessons -= k;
    }),
    once(Boolean(reference?.card), (s) => {
      s.refCard = false;
    }),
    once(Boolean(repoCard), (s) => {
      s.repoCard = false;
    }),
  ];
  const initial = (): State => ({
    files: changes?.files.length ?? 0,
    examples: examples.length,
    commits: changes?.commits.length ?? 0,
    refCompact: false,
    repoCompact: false,
    lessons: lessons.length,
    refCard: true,
    repoCard: true,
  });
  const render = (s: State): CampaignContext => {
    const full = initial();
    const dropped: string[] = [];
    const note = (cut: boolean, name: string) => {
      if (cut) dropped.push(name);
    };
    note(s.files < full.files, 'reference.changes.files');
    note(s.examples < full.examples, 'examples');
    note(s.commits < full.commits, 'reference.changes.commits');
    note(s.refCompact && Boolean(reference?.card), 'reference.card.detail');
    note(s.repoCompact && Boolean(repoCard), 'repo_card.detail');
    note(s.lessons < full.lessons, 'lessons');
    note(!s.refCard && Boolean(reference?.card), 'reference.card');
    note(!s.repoCard && Boolean(repoCard), 'repo_card');
    const card = (c: RepoCard | null, keep: boolean, compact: boolean) =>
      c && keep ? (compact ? compactCard(c) : c) : null;
    return {
      slug: campaign.slug,
      title: campaign.title,
      status: campaign.status,
      goal: campaign.goal ?? null,
      row: row ? { ...row, objective_id: campaignObjectiveId(campaign.slug, row.project, row.repo) } : null,
      reference: reference
        ? {
            repo: reference.repo,
            card: card(reference.card, s.refCard, s.refCompact),
            changes: changes
              ? {
                  ...changes,
                  commits: changes.commits.slice(0, s.commits),
                  files: changes.files.slice(0, s.files),
                }
              : null,
            ...(reference.note ? { note: reference.note } : {}),
          }
        : null,
      repo_card: card(repoCard, s.repoCard, s.repoCompact),
      // The newest lessons are kept: they hold what the latest repositories taught.
      lessons: lessons.slice(lessons.length - s.lessons),
      lessons_total: lessons.length,
      examples: examples.slice(0, s.examples),
      dropped_sections: dropped,
      max_tokens: parts.maxTokens,
      token_estimate: 0,
    };
  };
  return { initial, shrinks, render };
}
