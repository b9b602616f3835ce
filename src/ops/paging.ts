import * as z from 'zod';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';

/**
 * One paging convention for every list that grows with the workspace or the state: `limit` and `offset` in,
 * `total`, `offset`, `next_offset` (null on the last page) and `truncated` out, beside the list itself.
 */

/** Page size when the caller gives none, per caller: an agent's context is small, a terminal scrolls. */
export interface PageDefaults {
  /** A person at the CLI (HUB_AGENT_MODE unset). */
  cli: number;
  /** An agent: the MCP tools, and the CLI with HUB_AGENT_MODE=true. */
  agent: number;
  /** The HTTP routes (the browser UI asks for larger pages by name). */
  http: number;
}

export const PAGE_DEFAULTS: PageDefaults = { cli: 1000, agent: 50, http: 100 };

/** Largest page any list gives at once, unless the list says otherwise (terrain: 5000, by the spec). */
export const PAGE_MAX = 1000;

/** How one list pages: its defaults and its cap. */
export interface PageSpec {
  defaults: PageDefaults;
  max: number;
}

export const DEFAULT_PAGE_SPEC: PageSpec = { defaults: PAGE_DEFAULTS, max: PAGE_MAX };

/** What a page says about the whole list, so a caller knows whether to ask for the next one. */
export interface PageInfo {
  /** Items in the whole list (after filters), every page together. */
  total: number;
  /** Index of this page's first item. */
  offset: number;
  /** `offset` of the next page; null on the last page. */
  next_offset: number | null;
  /** True when items after this page exist (the answer was cut: ask for next_offset). */
  truncated: boolean;
}

export interface PageInput {
  limit?: number;
  offset?: number;
}

function defaultsText(spec: PageSpec): string {
  const d = spec.defaults;
  return `default ${d.cli} on the CLI, ${d.agent} over MCP or with HUB_AGENT_MODE=true, ${d.http} over HTTP; max ${spec.max}`;
}

/**
 * The `limit` and `offset` input fields of a paged list; `noun` names what is counted (`Components`). Their help is
 * the CLI's only: to a model `limit` (with its maximum) and `offset` say enough, and a page answers next_offset.
 */
export function pageFields(noun: string, spec: PageSpec = DEFAULT_PAGE_SPEC) {
  return {
    limit: cliHelp(
      z.coerce
        .number({ error: 'must be a number' })
        .int({ error: 'must be a whole number' })
        .min(1, { error: 'must be at least 1' })
        .max(spec.max, { error: `must be at most ${spec.max}` })
        .optional(),
      `${noun} per page (${defaultsText(spec)}).`,
    ),
    offset: cliHelp(
      z.coerce
        .number({ error: 'must be a number' })
        .int({ error: 'must be a whole number' })
        .min(0, { error: 'must be 0 or more' })
        .optional(),
      `${noun} to skip: next_offset of the previous page (default 0).`,
    ),
  };
}

/** The page size in force: the caller's, else the default of the surface the request came in on. */
export function pageLimit(
  ctx: Pick<OpContext, 'surface' | 'agentMode'>,
  input: PageInput,
  spec = DEFAULT_PAGE_SPEC,
): number {
  if (input.limit !== undefined) return input.limit;
  if (ctx.surface === 'http') return spec.defaults.http;
  if (ctx.surface === 'mcp' || ctx.agentMode) return spec.defaults.agent;
  return spec.defaults.cli;
}

/** The input with its page size made explicit: what a list forwarded to a state server must send. */
export function withPageLimit<T extends PageInput>(
  ctx: Pick<OpContext, 'surface' | 'agentMode'>,
  input: T,
  spec = DEFAULT_PAGE_SPEC,
): T & { limit: number } {
  return { ...input, limit: pageLimit(ctx, input, spec) };
}

/** Cuts one page out of a list in its stable order and says where it stands in the whole. */
export function pageOf<T>(
  ctx: Pick<OpContext, 'surface' | 'agentMode'>,
  input: PageInput,
  items: readonly T[],
  spec = DEFAULT_PAGE_SPEC,
): { items: T[]; page: PageInfo } {
  return slicePage(items, input.offset ?? 0, pageLimit(ctx, input, spec));
}

/** One page of `items` from `offset`, at most `limit` long. */
export function slicePage<T>(
  items: readonly T[],
  offset: number,
  limit: number,
): { items: T[]; page: PageInfo } {
  const page = items.slice(offset, offset + limit);
  const end = offset + page.length;
  const more = end < items.length;
  return {
    items: page,
    page: { total: items.length, offset, next_offset: more ? end : null, truncated: more },
  };
}

/** The footer of a human table: `showing 50 of 230 components; next page: --offset 50`, or nothing when whole. */
export function pageFooter(shown: number, page: PageInfo, noun: string): string {
  if (!page.truncated && page.offset === 0) return '';
  const from = page.offset > 0 ? ` from ${page.offset}` : '';
  const next = page.next_offset !== null ? `; next page: --offset ${page.next_offset}` : '';
  return `showing ${shown} of ${page.total} ${noun}${from}${next}`;
}

/** The page fields of a result, split from its list (for the human footer). */
export function pageInfoOf(r: PageInfo): PageInfo {
  return { total: r.total, offset: r.offset, next_offset: r.next_offset, truncated: r.truncated };
}

/** A list result with its `key` list cut to one page and the page fields added beside it. */
export function pagedResult<K extends string, R extends { [P in K]: readonly unknown[] }>(
  ctx: Pick<OpContext, 'surface' | 'agentMode'>,
  input: PageInput,
  result: R,
  key: K,
  spec = DEFAULT_PAGE_SPEC,
): R & PageInfo {
  const { items, page } = pageOf(ctx, input, result[key], spec);
  return { ...result, [key]: items, ...page };
}
