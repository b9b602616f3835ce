import * as z from 'zod';
import { branchNameProblem } from '../acl/index.js';
import { NAME_RE } from '../model/index.js';

/** Campaign statuses; `complete`, `done` and `in-progress` are older spellings read on load (legacy.ts). */
export const CAMPAIGN_STATUSES = ['draft', 'active', 'completed', 'archived'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Where one repository of a campaign stands. */
export const ROW_STATUSES = ['pending', 'routed', 'mr-open', 'merged', 'blocked'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** Boards a campaign links to: GitHub Projects (v2) and Azure Boards. */
export const BOARD_PROVIDERS = ['github', 'azure'] as const;
export type BoardProviderName = (typeof BOARD_PROVIDERS)[number];

/** The document format hub writes; an integer (1) is an older spelling of it. */
export const CAMPAIGN_SCHEMA_VERSION = '1.0';

/**
 * Bounds of one campaign document. A clone ships these files, so every one is read within them: the file's bytes
 * and YAML shape (files.ts), and each field's length here.
 */
export const CAMPAIGN_LIMITS = {
  file_bytes: 2 * 1024 * 1024,
  /** Nesting of the YAML (document, repos, row, work_item is 4): anything deeper is no campaign. */
  yaml_depth: 16,
  repos: 5000,
  lessons: 1000,
  tags: 64,
  slug_chars: 64,
  title_chars: 200,
  goal_chars: 8000,
  note_chars: 2000,
  lesson_chars: 4000,
  query_chars: 500,
  url_chars: 2000,
  short_chars: 200,
  /** Claim patterns of one row (`campaign plan`), and the length of each. */
  patterns: 64,
  pattern_chars: 500,
  /** Largest token budget of one row's context. */
  budget: 10_000_000,
  /** Campaign files one listing reads (the rest are reported, not read). */
  files: 1000,
} as const;

/**
 * A slug names the file (`<slug>.yml`) and prefixes objective ids (`campaign-<slug>-...`): lowercase letters,
 * digits and single hyphens, starting and ending with a letter or digit.
 */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;

const text = (max: number) => z.string().max(max, `at most ${max} characters`);
const Name = z.string().regex(NAME_RE, 'must be a project or repository name ([A-Za-z0-9][A-Za-z0-9._-]*)');

/** `project/repo`. */
export const REPO_REF_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A git branch name (`branch`, `into` of a row): what `git check-ref-format --branch` takes. */
const Branch = z.string().superRefine((v, c) => {
  const problem = branchNameProblem(v);
  if (problem) c.addIssue({ code: 'custom', message: `is not a valid branch name: ${problem}` });
});

/** A link to an item on a board: the item's id there, and the board state it had when hub last synced it. */
export const WorkItemSchema = z.looseObject({
  provider: z.enum(BOARD_PROVIDERS).optional(),
  id: text(CAMPAIGN_LIMITS.short_chars).min(1),
  url: text(CAMPAIGN_LIMITS.url_chars).optional(),
  /** The board's state at the last sync: a later change on the board is told from a change of the row by it. */
  state: text(CAMPAIGN_LIMITS.short_chars).optional(),
  synced_at: text(64).optional(),
});
export type WorkItemRef = z.infer<typeof WorkItemSchema>;

const TagValue = z.union([text(256), z.number(), z.boolean()]);

export const SelectionSchema = z.looseObject({
  query: text(CAMPAIGN_LIMITS.query_chars).optional(),
  tags: z
    .record(text(64), TagValue)
    .refine((t) => Object.keys(t).length <= CAMPAIGN_LIMITS.tags, `at most ${CAMPAIGN_LIMITS.tags} tags`)
    .default(() => ({})),
  resolved_at: text(64).optional(),
});
export type Selection = z.infer<typeof SelectionSchema>;

export const RowSchema = z.looseObject({
  project: Name,
  repo: Name,
  role: text(64).optional(),
  status: z.enum(ROW_STATUSES).default('pending'),
  mr: text(CAMPAIGN_LIMITS.url_chars).optional(),
  note: text(CAMPAIGN_LIMITS.note_chars).optional(),
  work_item: WorkItemSchema.optional(),
  /** The branch `campaign land` lands (default: the checkout's `campaign/<slug>` branch). */
  branch: Branch.optional(),
  /** The target it lands on (default: `campaign land`'s `into`, main). */
  into: Branch.optional(),
  /** Claim patterns of the row's task in `campaign plan` (default `**`). */
  patterns: z
    .array(text(CAMPAIGN_LIMITS.pattern_chars).min(1))
    .max(CAMPAIGN_LIMITS.patterns, `at most ${CAMPAIGN_LIMITS.patterns} patterns`)
    .optional(),
  /** Token budget of the row's task context in `campaign plan`. */
  budget: z.number().int().min(0).max(CAMPAIGN_LIMITS.budget).optional(),
});
export type CampaignRow = z.infer<typeof RowSchema>;

export const LessonSchema = z.looseObject({
  text: text(CAMPAIGN_LIMITS.lesson_chars).min(1),
  recorded_at: text(64).optional(),
  repo: z.string().regex(REPO_REF_RE, 'must be <project>/<repo>').optional(),
  by: text(CAMPAIGN_LIMITS.short_chars).optional(),
});
export type Lesson = z.infer<typeof LessonSchema>;

// Loose: keys another tool (or a newer hub) wrote survive a load and a save; `campaign validate` names them.
export const CampaignSchema = z.looseObject({
  schema_version: z
    .string()
    .regex(/^1\.\d+$/, 'must be 1.x')
    .default(CAMPAIGN_SCHEMA_VERSION),
  slug: z.string().regex(SLUG_RE, 'lowercase letters, digits and single hyphens, at most 64'),
  title: text(CAMPAIGN_LIMITS.title_chars).min(1),
  status: z.enum(CAMPAIGN_STATUSES).default('draft'),
  goal: text(CAMPAIGN_LIMITS.goal_chars).optional(),
  reference_impl: z.string().regex(REPO_REF_RE, 'must be <project>/<repo>').optional(),
  objective_id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'must match [A-Za-z0-9_.-]+')
    .optional(),
  created: text(64).optional(),
  updated: text(64).optional(),
  work_item: WorkItemSchema.optional(),
  /** In `campaign plan`, every other row's task waits for the reference implementation's. */
  reference_first: z.boolean().optional(),
  selection: SelectionSchema.prefault({}),
  repos: z
    .array(RowSchema)
    .max(CAMPAIGN_LIMITS.repos, `at most ${CAMPAIGN_LIMITS.repos} repositories`)
    .default(() => []),
  lessons: z
    .array(LessonSchema)
    .max(CAMPAIGN_LIMITS.lessons, `at most ${CAMPAIGN_LIMITS.lessons} lessons`)
    .default(() => []),
});
export type Campaign = z.infer<typeof CampaignSchema>;

/** Keys of the format; anything else in a document is kept, and named by `campaign validate`. */
export const CAMPAIGN_KEYS: ReadonlySet<string> = new Set(Object.keys(CampaignSchema.shape));
export const ROW_KEYS: ReadonlySet<string> = new Set(Object.keys(RowSchema.shape));

/** `project/repo` of a row. */
export const rowRef = (row: Pick<CampaignRow, 'project' | 'repo'>) => `${row.project}/${row.repo}`;

/** The id of the objective `campaign expand` makes for one repository. */
export function campaignObjectiveId(slug: string, project: string, repo: string): string {
  return `campaign-${slug}-${project}-${repo}`;
}

/** The prefix of every objective id of a campaign (`context events --campaign` matches it). */
export const campaignObjectivePrefix = (slug: string) => `campaign-${slug}-`;
