import { resolve } from 'node:path';
import * as z from 'zod';
import { type RepoTarget, resolveClaimScope, resolveRepository } from '../acl/index.js';
import { readFileBounded, ValidationError } from '../infra/index.js';
import { type OutlineItem, parseOutline, TASK_LIMITS, TASK_STATUSES } from '../taskgraph/index.js';
import { repoDeps } from './acl-deps.js';
import { componentsOf } from './claim-ops.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';

/** Input fields the task operations share, so help text and MCP schemas say the same everywhere. */
export const taskFields = {
  graph_id: cliHelp(z.string().min(1), 'Task graph id.'),
  node_id: cliHelp(z.string().min(1), 'Node id (its graph is found when --graph-id is not given).'),
  graph_ref: cliHelp(
    z.string().min(1).optional(),
    'Task graph id; needed when the node id is in several graphs.',
  ),
  agent_id: cliHelp(z.string().min(1), 'Agent acting (letters, digits, ., _ and -).'),
  status: cliHelp(z.enum(TASK_STATUSES).optional(), 'Only nodes with this status.'),
  reason: cliHelp(z.string().max(TASK_LIMITS.text_chars), 'Why (at most 4000 characters).'),
  force: z.boolean().default(false).describe('Do it where the rules would refuse.'),
  limit: cliHelp(
    z.coerce.number().int().min(1).max(TASK_LIMITS.nodes_per_graph).optional(),
    'Most nodes listed (default 1000).',
  ),
};

/** Where an outline comes from: a file, inline text, or (CLI) standard input. */
export const outlineFields = {
  from_outline: cliHelp(
    z.string().min(1).optional().describe('File holding the outline (instead of `outline`).'),
    'File holding the outline (the format of --outline); - reads standard input.',
  ),
  outline: z
    .string()
    .optional()
    .describe(
      'JSON list of titles or {title, depends_on?, repository?, component?, patterns?, priority?}, or indented text.',
    ),
  repository: z.string().min(1).optional().describe('project/repo of the items that name none.'),
};

/**
 * Reads an outline file: a regular file only (never a FIFO, device or socket), at most TASK_LIMITS.outline_bytes
 * counted on the bytes read. On the CLI the user named the path; over MCP and HTTP its real path must lie inside
 * the workspace, as a notes file's does, so a remote caller cannot read other files through a planted symlink.
 */
function readOutlineFile(ctx: OpContext, path: string): string {
  return readFileBounded(resolve(ctx.cwd, path), {
    maxBytes: TASK_LIMITS.outline_bytes,
    root: ctx.readStdin ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'from_outline',
    shown: path,
  }).toString('utf8');
}

/**
 * The outline's text: `outline`, or the file `from_outline` (`-`: standard input, CLI only), or, when `stdin` is
 * set and neither is given, standard input. Undefined when there is none.
 */
export async function outlineText(
  ctx: OpContext,
  input: { from_outline?: string; outline?: string },
  stdin: boolean,
): Promise<string | undefined> {
  if (input.outline !== undefined && input.from_outline !== undefined)
    throw new ValidationError('outline: give outline or from_outline, not both', {
      field: 'outline',
      rule: 'one_of_outline_or_from_outline',
    });
  if (input.outline !== undefined) return input.outline;
  if (input.from_outline === '-' || (input.from_outline === undefined && stdin)) {
    if (!ctx.readStdin) {
      if (input.from_outline === undefined) return undefined;
      throw new ValidationError(
        'from_outline: - (standard input) is only for the CLI; pass outline instead',
        {
          field: 'from_outline',
          value: '-',
          rule: 'cli_only',
        },
      );
    }
    return ctx.readStdin();
  }
  return input.from_outline === undefined ? undefined : readOutlineFile(ctx, input.from_outline);
}

/**
 * Resolves the outline items' repositories against the manifest (`project/repo`, `.`/`self`; unknown ones refused
 * with suggestions), filling `repository` where an item names none, and checks each item's component and patterns
 * against its repository as bind-acl will claim them.
 */
export async function resolveItems(
  ctx: OpContext,
  items: OutlineItem[],
  fallback: string | undefined,
): Promise<OutlineItem[]> {
  const targets = new Map<string, RepoTarget>();
  const targetOf = async (ref: string) => {
    let t = targets.get(ref);
    if (!t) {
      t = await resolveRepository(repoDeps(ctx), ref);
      targets.set(ref, t);
    }
    return t;
  };
  const out: OutlineItem[] = [];
  for (const [i, item] of items.entries()) {
    const ref = item.repository ?? fallback;
    if (ref === undefined) {
      if (item.component !== undefined || item.patterns !== undefined)
        throw new ValidationError(
          `nodes[${i}].repository: a node with a component or patterns needs its repository`,
          { field: `nodes[${i}].repository`, rule: 'repository_for_claims' },
        );
      out.push(item);
      continue;
    }
    const target = await targetOf(ref);
    if (item.component !== undefined || item.patterns !== undefined)
      resolveClaimScope(componentsOf(ctx, target), target, {
        component: item.component,
        patterns: item.patterns,
      });
    out.push({ ...item, repository: target.id });
  }
  return out;
}

/** The outline's items, parsed and resolved (empty when there is no outline). */
export async function outlineItems(
  ctx: OpContext,
  input: { from_outline?: string; outline?: string; repository?: string },
  stdin: boolean,
): Promise<OutlineItem[] | undefined> {
  const text = await outlineText(ctx, input, stdin);
  if (text === undefined) return undefined;
  return resolveItems(
    ctx,
    parseOutline(text, input.outline !== undefined ? 'outline' : 'from_outline'),
    input.repository,
  );
}
