import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type HubError, NotFoundError, toHubError, ValidationError } from '../../infra/index.js';
import { definitionAt, loadAppConfig, MANIFEST_FILENAME } from '../../model/index.js';
import { loadWorkspace } from '../../ops/index.js';

export type GateState = 'active' | 'inactive_missing_config' | 'inactive_invalid_config';

export interface GateStatus {
  state: GateState;
  active: boolean;
  root: string;
  manifest: string;
  /** What is wrong (inactive only). */
  message?: string;
  /** Commands that fix it (inactive only). */
  fix?: string[];
  /** The manifest problems (invalid only; at most 20). */
  issues?: unknown[];
}

/** Where the server looks: `<root>/.hub.yml`, or the file itself when --root names a file. */
export function gateLocation(root: string, cwd: string): { root: string; manifest: string } {
  const found = definitionAt(root, cwd);
  if (found) return { root: found.dir, manifest: found.manifest };
  // A root that does not exist yet is read as a directory: the gate then reports the missing manifest.
  const abs = resolve(cwd, root);
  return { root: abs, manifest: join(abs, MANIFEST_FILENAME) };
}

const VERSION_TOOLS = 'hub_version_check and hub_version_upgrade work without it';

/** The gate state for an error thrown while loading the workspace (undefined: the gate is active). */
export function gateStatus(
  loc: { root: string; manifest: string },
  loadError: unknown | undefined,
): GateStatus {
  const base = { root: loc.root, manifest: loc.manifest };
  if (loadError === undefined) return { state: 'active', active: true, ...base };
  if (!existsSync(loc.manifest)) {
    return {
      state: 'inactive_missing_config',
      active: false,
      ...base,
      message: `no .hub.yml in ${loc.root}`,
      fix: [
        `run \`hub init\` in ${loc.root} to create one`,
        'or restart the server with `hub mcp serve --root <directory holding .hub.yml>`',
      ],
    };
  }
  const err = toHubError(loadError);
  const issues = (err.details as { issues?: unknown[] } | undefined)?.issues;
  return {
    state: 'inactive_invalid_config',
    active: false,
    ...base,
    message: `${loc.manifest} is not a valid manifest: ${err.message}`,
    fix: [
      `run \`hub config validate\` in ${loc.root} to list every problem with its line`,
      'fix them, then call the tool again (no restart needed)',
    ],
    ...(Array.isArray(issues) ? { issues: issues.slice(0, 20) } : {}),
  };
}

/** Reads the gate now; the server asks again on every call, so fixing the manifest needs no restart. */
export function readGate(
  loc: { root: string; manifest: string },
  env: Readonly<Record<string, string | undefined>>,
): GateStatus {
  try {
    loadWorkspace({
      cwd: loc.root,
      definition: loc.manifest,
      env,
      manifestMaxBytes: () =>
        loadAppConfig({ cwd: loc.root, manifestRoot: loc.root, env }).config.workspace.manifest_max_bytes,
    });
    return gateStatus(loc, undefined);
  } catch (err) {
    return gateStatus(loc, err);
  }
}

/** The error an ACTIVE tool or resource fails with while the gate is inactive. */
export function gateError(status: GateStatus): HubError {
  const text = `hub gate is ${status.state}: ${status.message}. Fix: ${(status.fix ?? []).join('; ')}. Only ${VERSION_TOOLS}.`;
  const details = {
    gate: status.state,
    root: status.root,
    manifest: status.manifest,
    fix: status.fix,
    ...(status.issues ? { issues: status.issues } : {}),
  };
  return status.state === 'inactive_missing_config'
    ? new NotFoundError(text, details)
    : new ValidationError(text, details);
}

/** Loads the workspace of `ctx`, turning a failure into the gate error that says how to fix it. */
export function ensureActive(ctx: { workspace(): unknown }, loc: { root: string; manifest: string }): void {
  try {
    ctx.workspace();
  } catch (err) {
    throw gateError(gateStatus(loc, err));
  }
}
