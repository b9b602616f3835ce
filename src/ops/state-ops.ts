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
  handler: (ctx) => {
    const app = ctx.appConfig();
    const { info } = ctx.store();
    return {
      ...info,
      token_configured: Boolean(stateBearerToken(app.config.state)),
      env_overrides: app.overrides.filter((v) => STATE_VARIABLES.includes(v)),
    };
  },
  cli: { command: 'state info', human: (r) => keyValues(r) },
});
