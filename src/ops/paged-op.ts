import type * as z from 'zod';
import { withFooter } from './format.js';
import {
  DEFAULT_PAGE_SPEC,
  type PageInfo,
  type PageSpec,
  pagedResult,
  pageFields,
  pageFooter,
} from './paging.js';
import type { Operation } from './registry.js';

type PageShape = ReturnType<typeof pageFields>;

export interface PagedListOptions<K extends string> {
  /** The result's list that is cut into pages. */
  key: K;
  /** What the list holds, capitalised for help text (`Claims`); its lower case names them in the footer. */
  noun: string;
  /** The list's stable order, said in the description (offset paging needs one). */
  order: string;
  spec?: PageSpec;
}

/**
 * A list operation that pages: `limit` and `offset` join its input, its result's `key` list is cut to one page
 * with total, offset, next_offset and truncated beside it, and its human table gets the page footer. The
 * handler computes the whole list as before (a pure read of one document or the catalog); only the answer is cut.
 */
export function pagedList<
  I extends z.ZodObject,
  O extends { [P in K]: readonly unknown[] },
  K extends string,
>(
  op: Operation<I, O>,
  opts: PagedListOptions<K>,
): Operation<z.ZodObject<I['shape'] & PageShape>, O & PageInfo> {
  const spec = opts.spec ?? DEFAULT_PAGE_SPEC;
  const noun = opts.noun.toLowerCase();
  const human = op.cli?.human;
  const paging = `${opts.noun} ${opts.order}, a page at a time: --limit and --offset; total counts every match and next_offset names the next page (null on the last).`;
  return {
    ...op,
    description: op.description ? `${op.description} ${paging}` : paging,
    input: op.input.extend(pageFields(opts.noun, spec)) as z.ZodObject<I['shape'] & PageShape>,
    handler: async (ctx, input) => {
      const { limit, offset, ...rest } = input as z.output<I> & { limit?: number; offset?: number };
      const whole = await op.handler(ctx, rest as z.output<I>);
      return pagedResult(ctx, { limit, offset }, whole, opts.key, spec);
    },
    cli: op.cli && {
      ...op.cli,
      human: human && ((r) => withFooter(human(r), pageFooter(r[opts.key].length, r, noun))),
      exitCode: op.cli.exitCode,
    },
  } as Operation<z.ZodObject<I['shape'] & PageShape>, O & PageInfo>;
}
