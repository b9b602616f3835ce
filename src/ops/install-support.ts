import { realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import {
  type ApplyResult,
  applyFileWrites,
  type FileWritePlan,
  type FileWriteView,
  gitRootOf,
  INSTALL_SCOPES,
  type InstallRoots,
  type InstallScope,
  type McpServerCommand,
  VENDOR_IDS,
  viewPlan,
} from '../agents/index.js';
import { RefusedError, realpathOrUndefined, ValidationError } from '../infra/index.js';
import { locateManifest, MANIFEST_FILENAME } from '../model/index.js';
import { findPackageRoot } from '../workspace/index.js';
import { PACKAGE_NAME } from './build-info.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { mcpToolRefs, selectedNames, selectionWords } from './toolsets.js';

/** A vendor argument as the tool list says it: examples only (a wrong id is refused with the whole list). */
export const VENDOR_HINT = 'Vendor id, e.g. claude_code, cursor or codex.';

/** Fields every install operation shares, so CLI help, MCP schemas and HTTP bodies say the same. */
export const installFields = {
  scope: z.enum(INSTALL_SCOPES).describe("project: the workspace's git repository; user: home (CLI only)."),
  target: cliHelp(z.string().min(1).max(40).describe(VENDOR_HINT), `One of ${VENDOR_IDS.join(', ')}.`),
  force: z.boolean().optional().describe('Replace a file you changed or hub did not write.'),
  dry_run: z.boolean().optional().describe('Show each file and diff; write nothing.'),
};

/** What every install answers: each planned file and what happened to it. */
export interface InstallFiles {
  dry_run: boolean;
  files: FileWriteView[];
  written: string[];
}

/** True on the CLI (the only surface with standard input): the caller is the user at their own terminal. */
export const onCli = (ctx: OpContext) => ctx.readStdin !== undefined;

/**
 * User scope writes the home folder of whoever runs hub. Over MCP and HTTP that is the server's user, and the
 * caller (an agent, a browser page on this machine) is not: they may install into the served workspace's
 * repository only.
 */
export function checkScopeOnSurface(ctx: OpContext, scope: InstallScope): void {
  if (scope === 'user' && !onCli(ctx))
    throw new RefusedError(
      'scope: user-scope installs write the home folder of the user running the server and are allowed on the CLI only; use scope project, or run `hub ... --scope user` yourself',
      { field: 'scope', value: scope, rule: 'user_scope_cli_only' },
    );
}

/**
 * The folders installs resolve against: the nearest git repository of the working folder (on MCP and HTTP the
 * served workspace's folder) and the home folder, taken from the environment the context carries (never the
 * process's own), so tests and servers point it where they mean to.
 */
export function installRoots(ctx: OpContext, scope: InstallScope, projectRoot?: string): InstallRoots {
  const home = ctx.env.HOME;
  if (scope === 'user' && !home)
    throw new ValidationError('scope: user scope needs HOME to be set', {
      field: 'scope',
      value: scope,
      rule: 'home_set',
    });
  const start = onCli(ctx) ? ctx.cwd : ctx.root();
  const root = projectRoot ?? gitRootOf(realpathOrUndefined(start) ?? start);
  return { projectRoot: root, home: realpathOrUndefined(home ?? '') ?? home ?? '' };
}

/** hub's package folder (bin/, dist/, templates/), found from the running bundle. */
export function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return findPackageRoot(here, PACKAGE_NAME) ?? resolve(here, '..', '..');
}

/** Writes the plans (or not, on a dry run) and answers with every file's view. */
export function applyPlans(plans: FileWritePlan[], dryRun: boolean): InstallFiles {
  const r: ApplyResult = applyFileWrites(plans, { dryRun });
  return {
    dry_run: dryRun,
    files: r.plans.map((p) => viewPlan(p, { detail: dryRun })),
    written: r.written,
  };
}

/** The `hub` on PATH when it is this very hub (another tool may be called `hub`), else undefined. */
function hubOnPath(ctx: OpContext, bin: string): string | undefined {
  const mine = realpathOrUndefined(bin);
  for (const dir of (ctx.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const found = realpathOrUndefined(join(dir, 'hub'));
    if (found && found === mine) return 'hub';
  }
  return undefined;
}

/**
 * How a vendor starts this hub's MCP server. `hub` when the `hub` on PATH is this hub (portable, survives
 * upgrades); otherwise this Node and this package's bin/hub by absolute path, since editors started from a
 * desktop often lack the shell's PATH. `--root` names the workspace, because `hub mcp serve` does not search
 * parent folders and vendors start servers in folders of their own choosing. `tools` and `dynamic` become
 * `--tools` and `--dynamic`.
 */
export function hubServerCommand(
  ctx: OpContext,
  opts: { tools?: string; dynamic?: boolean } = {},
): McpServerCommand {
  let manifest: string;
  try {
    manifest = locateManifest(ctx.cwd, ctx.definition);
  } catch {
    throw new ValidationError(
      `mcp: no ${MANIFEST_FILENAME} in ${ctx.cwd} or a parent folder; the server needs a workspace to serve: run it inside a hub workspace, or pass -c <manifest>`,
      { field: 'root', value: ctx.cwd, rule: 'workspace_manifest' },
    );
  }
  const real = realpathSync(manifest);
  const root = basename(real) === MANIFEST_FILENAME ? dirname(real) : real;
  const serve = [
    'mcp',
    'serve',
    '--root',
    root,
    ...(opts.tools ? ['--tools', opts.tools] : []),
    ...(opts.dynamic ? ['--dynamic'] : []),
  ];
  const bin = join(packageRoot(), 'bin', 'hub');
  const env = { HUB_AGENT_MODE: 'true' };
  if (hubOnPath(ctx, bin)) return { command: 'hub', args: serve, env };
  return { command: process.execPath, args: [bin, ...serve], env };
}

const VERBS: Record<FileWriteView['action'], [string, string]> = {
  create: ['created', 'would create'],
  update: ['updated', 'would update'],
  unchanged: ['unchanged', 'unchanged'],
  conflict: ['conflict', 'conflict'],
};

/** One line per file for people: `created <path>`, `would update <path>`, `conflict <path>: why`. */
export function filesHuman(r: InstallFiles): string {
  return r.files
    .map((f) => {
      const head = `${VERBS[f.action][r.dry_run ? 1 : 0]} ${f.path}`;
      if (f.action === 'conflict') return `${head}: ${f.reason}`;
      if (!r.dry_run) return head;
      if (f.patch) return `${head}\n${f.patch}`;
      return f.action === 'create' && f.content !== undefined ? `${head}\n${f.content}` : head;
    })
    .join('\n');
}

/** The lean default of an install: the core profile, with toolsets enabled at run time. */
export const LEAN_TOOLS = 'core';

/**
 * The `--tools` and `--dynamic` of an installed entry: the given selection (checked against the registry, an
 * unknown name refused with the nearest valid one) with `dynamic` only when asked for, or the lean default.
 */
export async function installedTools(
  tools: string | undefined,
  dynamic: boolean | undefined,
  field = 'tools',
): Promise<{ tools: string; dynamic: boolean }> {
  if (tools === undefined) return { tools: LEAN_TOOLS, dynamic: dynamic ?? true };
  selectedNames(tools, await mcpToolRefs(), field);
  return { tools: selectionWords(tools, field).join(','), dynamic: dynamic ?? false };
}
