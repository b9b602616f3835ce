import * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import { type AppConfig, STATE_BACKENDS, stateTokenExposure } from '../model/index.js';
import {
  type DocumentStore,
  describeStore,
  migrateState,
  openStore,
  type StoreInfo,
  type StoreInit,
} from '../state/index.js';
import type { OpContext } from './context.js';
import { keyValues } from './format.js';
import { defineOp, type HttpBinding, WRITES, WRITES_IDEMPOTENT } from './registry.js';

const INIT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/state/init', input: 'none' };

export const stateInit = defineOp({
  id: 'state.init',
  summary: 'Create what the state backend needs (a DynamoDB table), or report it exists.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx): Promise<StoreInit> => {
    const { store, info } = ctx.store();
    // A hub server as the store: its operator's backend is set up where it lives, by the server.
    if (store.callRoute) {
      const answer = await store.callRoute(INIT_ROUTE.method, INIT_ROUTE.route, undefined);
      if (answer.found) return answer.json as StoreInit;
    }
    if (store.init) return store.init();
    return { backend: info.backend, status: 'existing', location: info.location, note: 'nothing to create' };
  },
  cli: { command: 'state init', human: (r) => keyValues(r) },
  mcp: { tool: 'hub_state_init', when: 'Use when setting up a state backend.' },
  http: [INIT_ROUTE],
});

const Backend = z.enum(STATE_BACKENDS);

/**
 * A backend by name, with the settings the current application config and environment give it (its
 * `state.<backend>` section, `state.url`, AWS_*): the same org and workspace ids on both sides.
 */
function openNamed(
  ctx: OpContext,
  backend: AppConfig['state']['backend'],
): { store: DocumentStore; info: StoreInfo } {
  const app = ctx.appConfig();
  const config: AppConfig = { ...app.config, state: { ...app.config.state, backend } };
  const exposure = stateTokenExposure({ ...app, config });
  if (exposure) throw exposure;
  const info = describeStore(config, ctx.root());
  // The configured store is reused (a memory store lives in it); the other side is opened for this migration.
  const current = ctx.store();
  if (current.info.backend === backend) return current;
  return { store: openStore(info, config.state, ctx.env), info };
}

export const stateMigrate = defineOp({
  id: 'state.migrate',
  summary:
    'Copy every state document from one backend to another with compare-and-swap writes, then verify each ETag.',
  description:
    'Backends are named as in state.backend and use the settings of the current config and environment. Refuses a target holding documents that differ from the source unless --overwrite; documents already equal are skipped, so an interrupted migration is resumed by running it again.',
  input: z.strictObject({
    from: Backend.describe('Backend to copy from (local, http, dynamodb, mongodb, memory).'),
    to: Backend.describe('Backend to copy to.'),
    overwrite: z
      .boolean()
      .default(false)
      .describe('Replace target documents that differ from the source (none is deleted).'),
  }),
  gate: 'none',
  attributes: WRITES,
  handler: async (ctx, input) => {
    if (input.from === input.to)
      throw new ValidationError(`--from and --to name the same backend '${input.from}'`, {
        field: 'to',
        value: input.to,
        rule: 'different_backends',
      });
    const from = openNamed(ctx, input.from);
    const to = openNamed(ctx, input.to);
    const owned = [from, to].filter((s) => s !== ctx.store());
    try {
      const report = await migrateState(from.store, to.store, { overwrite: input.overwrite });
      return { from: from.info.location, to: to.info.location, ...report };
    } finally {
      for (const s of owned) await s.store.close?.();
    }
  },
  cli: { command: 'state migrate', human: (r) => keyValues(r) },
});
