import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { HubError, ValidationError } from '../infra/index.js';
import {
  appConfigTextIssues,
  defaultUserConfigDir,
  draftAppConfigText,
  locateAppConfig,
  locateManifest,
  patchAppConfigText,
  readAppConfigData,
  readUtf8File,
  redactAppConfig,
  redactConfigText,
  refuseTrustedKeys,
  saveAppConfig,
  WORKSPACE_CONFIG_RULE,
  yaml,
} from '../model/index.js';
import {
  type DraftError,
  draftFields,
  failureErrors,
  operationsOf,
  type PreviewResult,
  previewHuman,
  styled,
  styleField,
} from './config-studio.js';
import type { OpContext } from './context.js';
import { keyValues } from './format.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

export const appconfigInfo = defineOp({
  id: 'appconfig.info',
  summary:
    'Show which hub.config.yaml is in effect, with defaults and HUB_* overrides applied (secrets redacted).',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx) => {
    const app = ctx.appConfig();
    return {
      path: app.path ?? null,
      source: app.source,
      trusted: app.trusted,
      trusted_keys_from: app.trustedKeysFrom ?? null,
      overrides: app.overrides,
      legacy: app.legacy,
      config: redactAppConfig(app.config),
    };
  },
  cli: {
    command: 'appconfig info',
    human: (r) =>
      `${keyValues({ path: r.path ?? '(bundled defaults)', source: r.source, trusted: r.trusted, overrides: r.overrides })}\n${JSON.stringify(r.config, null, 2)}`,
  },
  http: [{ method: 'GET', route: '/v3/config/appconfig', input: 'none' }],
});

export const appconfigValidate = defineOp({
  id: 'appconfig.validate',
  summary:
    'Check the application config file and HUB_* overrides; lists every problem with its path and line.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx) => {
    try {
      const app = ctx.appConfig();
      return { valid: true, path: app.path ?? null, source: app.source, problems: [] as unknown[] };
    } catch (err) {
      // A workspace config setting a trusted-only key is refused on load; here it is a problem like any other.
      if (!(err instanceof HubError)) throw err;
      if (!(err instanceof ValidationError) && err.details?.rule !== WORKSPACE_CONFIG_RULE) throw err;
      const issues = (err.details?.issues as unknown[] | undefined) ?? [
        { path: '(file)', message: err.message, rule: err.details?.rule ?? 'invalid' },
      ];
      return {
        valid: false,
        path: (err.details?.file as string | undefined) ?? null,
        source: null,
        problems: issues,
      };
    }
  },
  cli: {
    command: 'appconfig validate',
    exitCode: (r) => (r.valid ? 0 : 1),
    human: (r) =>
      r.valid
        ? `ok: ${r.path ?? '(bundled defaults)'}`
        : [`${r.problems.length} problem(s):`, ...r.problems.map((p) => `  ${JSON.stringify(p)}`)].join('\n'),
  },
  http: [{ method: 'GET', route: '/v3/config/appconfig/validate', input: 'none' }],
});

export const appconfigPatch = defineOp({
  id: 'appconfig.patch',
  summary: 'Set or unset one key of hub.config.yaml, keeping comments; previews unless save is given.',
  input: z.strictObject({
    op: z.enum(['set', 'unset']).describe('Patch operation.'),
    path: z.string().min(1).describe('Dotted key path, e.g. state.backend.'),
    value: z.string().optional().describe('New value (lists as JSON or comma-separated).'),
    save: z.boolean().optional().describe('Write the file (atomically); without it, only preview.'),
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    if (input.op === 'set' && input.value === undefined) {
      throw new ValidationError('value is required with --op set', { field: 'value', rule: 'required' });
    }
    const { target, inWorkspace, userConfigDir, before } = appConfigTarget(ctx);
    const { text, config } = patchAppConfigText(
      before,
      [{ op: input.op, path: input.path, value: input.value }],
      target,
    );
    if (inWorkspace) {
      const after = readAppConfigData(text, target);
      refuseTrustedKeys(after.data, after.src, target, join(userConfigDir, 'config.yml'));
    }
    if (input.save) saveAppConfig(target, text);
    return {
      path: target,
      saved: Boolean(input.save),
      changed: text !== before,
      // What is shown: every secret of the file redacted (the file itself keeps them).
      text: redactConfigText(text),
      config: redactAppConfig(config),
    };
  },
  cli: {
    command: 'appconfig patch',
    human: (r) => (r.saved ? `saved ${r.path}` : `${r.text}\n(preview: pass --save to write ${r.path})`),
  },
});

/**
 * The file `appconfig patch` and its preview edit: located, not loaded, so that a file the load refuses (a
 * workspace config with a trusted-only key) can still be fixed. With no config file, hub.config.yaml beside the
 * manifest.
 */
export function appConfigTarget(ctx: OpContext): {
  target: string;
  inWorkspace: boolean;
  userConfigDir: string;
  before: string;
} {
  const root = manifestRootOr(ctx);
  const userConfigDir = defaultUserConfigDir(ctx.env);
  const loc = locateAppConfig({ cwd: ctx.cwd, manifestRoot: root, explicit: ctx.appconfig, userConfigDir });
  const target = loc.path ?? join(root, 'hub.config.yaml');
  const inWorkspace = loc.source === 'workspace' || loc.source === 'default';
  const before = existsSync(target) ? readUtf8File(target, 'application config') : '';
  return { target, inWorkspace, userConfigDir, before };
}

export const appconfigPreview = defineOp({
  id: 'appconfig.preview',
  summary:
    'Preview a draft of patch operations on hub.config.yaml: normalized, minimal or on-disk, with its validation errors; secrets redacted.',
  description:
    'Never writes. Tokens and other secrets show as *** plus their last four characters. HUB_* overrides are not applied: the preview is of the file (appconfig info shows what is in effect).',
  input: z.strictObject({ style: styleField, ...draftFields }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx, input): PreviewResult => {
    const { target, inWorkspace, userConfigDir, before } = appConfigTarget(ctx);
    const ops = operationsOf(ctx, input);
    const draft = draftAppConfigText(before, ops, target, true);
    const { issues, config } = appConfigTextIssues(draft.text, ops, target);
    const errors: DraftError[] = [...failureErrors(draft.failures), ...issues];
    if (inWorkspace) {
      try {
        const after = readAppConfigData(draft.text, target);
        refuseTrustedKeys(after.data, after.src, target, join(userConfigDir, 'config.yml'));
      } catch (err) {
        if (!(err instanceof HubError) || err.details?.rule !== WORKSPACE_CONFIG_RULE) throw err;
        errors.push(...((err.details?.issues as DraftError[] | undefined) ?? []));
      }
    }
    const style = input.style ?? 'normalized';
    // Secrets never leave in any style: the model redacted, the text line by line.
    const shown = styled(style, 'appconfig', before, draft.text, config ?? null);
    return {
      file: target,
      style,
      operations: ops.length,
      changed: draft.text !== before,
      valid: errors.length === 0,
      validation_errors: errors,
      text: shown.model === null ? redactConfigText(shown.text) : stringifyRedacted(shown.model),
      model: shown.model === null ? null : redactAppConfig(shown.model),
    };
  },
  cli: { command: 'appconfig preview', exitCode: (r) => (r.valid ? 0 : 1), human: (r) => previewHuman(r) },
  http: [{ method: 'POST', route: '/v3/config/appconfig/preview', input: 'body' }],
});

function stringifyRedacted(model: unknown): string {
  return yaml().stringify(redactAppConfig(model), { lineWidth: 0 });
}

function manifestRootOr(ctx: { cwd: string; definition?: string }): string {
  try {
    return dirname(locateManifest(ctx.cwd, ctx.definition));
  } catch {
    // no manifest: the working directory
    return ctx.cwd;
  }
}
