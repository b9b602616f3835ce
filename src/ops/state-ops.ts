import * as z from 'zod';
import { stateBearerToken } from '../model/index.js';
import { keyValues } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';

const STATE_VARIABLES = [
  'HUB_STATE_BACKEND',
  'HUB_STATE_URL',
  'HUB_STATE_TOKEN',
  'HUB_STATE_ORG_ID',
  'HUB_STATE_WORKSPACE_ID',
  'HUB_STATE_MONGODB_URL',
];

export const stateInfo = defineOp({
  id: 'state.info',
  summary: 'Show the coordination state backend in use, its org and workspace ids and where documents live.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: async (ctx) => {
    const app = ctx.appConfig();
    const { info, store } = ctx.store();
    // A backend that can say more (dynamodb: table, region, endpoint, whether the table exists) does; a missing
    // table or permission is reported here with its fix rather than failing the command.
    const details = store.describe ? await store.describe() : undefined;
    return {
      ...info,
      ...(details ? { details } : {}),
      token_configured: Boolean(stateBearerToken(app.config.state)),
      env_overrides: app.overrides.filter((v) => STATE_VARIABLES.includes(v)),
    };
  },
  cli: { command: 'state info', human: (r) => keyValues(r) },
});
