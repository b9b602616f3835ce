import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { childProcess, RefusedError } from '../infra/index.js';
import {
  checkVersion,
  detectInstallChannel,
  type FetchLike,
  findPackageRoot,
  type InstallInfo,
  planUpgrade,
  type UpgradePlan,
  type VersionCheckResult,
} from '../workspace/index.js';
import { BUILD_ID, HUB_VERSION, PACKAGE_NAME } from './build-info.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { keyValues } from './format.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org';
/** The code host's "latest release" endpoint (GitHub API shape); HUB_RELEASES_URL overrides, `off` skips it. */
const DEFAULT_RELEASES_URL = 'https://api.github.com/repos/hub-workspace/hub/releases/latest';
/** Each source gets this long; both are asked in parallel, so a check without network ends within it. */
const CHECK_TIMEOUT_MS = 3000;
const UPGRADE_TIMEOUT_MS = 10 * 60_000;

function installInfo(ctx: OpContext): InstallInfo {
  const here = dirname(fileURLToPath(import.meta.url));
  const packageRoot = findPackageRoot(here, PACKAGE_NAME) ?? here;
  // npm sets npm_config_prefix for scripts; otherwise node's own prefix is npm's default global prefix.
  const execDir = dirname(process.execPath);
  const globalPrefix =
    ctx.env.npm_config_prefix || (process.platform === 'win32' ? execDir : dirname(execDir));
  return detectInstallChannel({ packageRoot, globalPrefix });
}

function runCheck(ctx: OpContext, includeNotes: boolean): Promise<VersionCheckResult> {
  const releases = ctx.env.HUB_RELEASES_URL;
  return checkVersion({
    name: PACKAGE_NAME,
    installed: HUB_VERSION,
    npmRegistry: ctx.env.HUB_NPM_REGISTRY || DEFAULT_NPM_REGISTRY,
    releasesUrl: releases === 'off' ? undefined : releases || DEFAULT_RELEASES_URL,
    offline: /^(1|true|yes)$/i.test(ctx.env.HUB_OFFLINE ?? ''),
    timeoutMs: CHECK_TIMEOUT_MS,
    includeNotes,
    fetch: globalThis.fetch as unknown as FetchLike,
    now: ctx.now(),
  });
}

export const version = defineOp({
  id: 'version',
  summary: 'Print the installed hub version, its build, the Node version and the install channel.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx) => {
    const install = installInfo(ctx);
    return {
      name: PACKAGE_NAME,
      version: HUB_VERSION,
      build: BUILD_ID,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      install: { channel: install.channel, package_root: install.package_root, linked: install.linked },
    };
  },
  cli: {
    command: 'version',
    human: (r) => `hub ${r.version} (build ${r.build}, node ${r.node}, ${r.install.channel})`,
  },
});

export const versionCheck = defineOp({
  id: 'version.check',
  summary: 'Compare the installed hub with the latest release.',
  description:
    'Each source gets 3 s; without network the status is "unknown" with the reason (exit 0). ' +
    'HUB_OFFLINE=1 skips the network; HUB_NPM_REGISTRY and HUB_RELEASES_URL (or off) point the check elsewhere.',
  input: z.strictObject({
    include_notes: cliHelp(z.boolean().optional(), 'Also return the release notes of the latest release.'),
  }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<VersionCheckResult> => runCheck(ctx, Boolean(input.include_notes)),
  cli: {
    command: 'version check',
    human: (r) =>
      r.status === 'unknown'
        ? `hub ${r.installed}: latest unknown (${r.reason})`
        : `hub ${r.installed}: latest ${r.latest} (${r.status.replace(/_/g, ' ')})`,
  },
  mcp: {
    tool: 'hub_version_check',
    when: 'Use when checking for updates; works without a manifest.',
  },
});

interface UpgradeResult {
  name: string;
  installed: string;
  latest: string | null;
  status: VersionCheckResult['status'];
  channel: InstallInfo['channel'];
  package_root: string;
  plan: UpgradePlan;
  apply: boolean;
  applied: boolean;
  /** What the upgrade command printed (apply only). */
  output?: string;
}

function runUpgrade(plan: UpgradePlan): Promise<string> {
  const [cmd, ...args] = plan.argv!;
  return new Promise((resolve, reject) => {
    childProcess().execFile(
      cmd!,
      args,
      { cwd: plan.cwd ?? undefined, timeout: UPGRADE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim().slice(-4000);
        if (err)
          reject(
            new RefusedError(`${plan.argv!.join(' ')} failed: ${err.message.split('\n')[0]}`, {
              command: plan.argv,
              output,
              rule: 'upgrade_failed',
            }),
          );
        else resolve(output);
      },
    );
  });
}

export const versionUpgrade = defineOp({
  id: 'version.upgrade',
  summary: 'Plan an upgrade through the detected install channel; `apply` runs it.',
  description:
    'Without --apply nothing changes. --apply on a development checkout, from the npx cache or from an ' +
    'unrecognised install is refused with what to do instead.',
  input: z.strictObject({
    apply: cliHelp(z.boolean().optional(), 'Run the upgrade (default: only show the plan).'),
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input): Promise<UpgradeResult> => {
    const info = installInfo(ctx);
    const plan = planUpgrade(info, PACKAGE_NAME);
    const apply = Boolean(input.apply);
    if (apply && plan.refused_reason) {
      throw new RefusedError(
        `version upgrade --apply refused: ${plan.refused_reason}; ${plan.instructions}`,
        {
          channel: info.channel,
          package_root: info.package_root,
          instructions: plan.instructions,
          rule: 'upgrade_channel',
        },
      );
    }
    const check = await runCheck(ctx, false);
    const result: UpgradeResult = {
      name: PACKAGE_NAME,
      installed: HUB_VERSION,
      latest: check.latest,
      status: check.status,
      channel: info.channel,
      package_root: info.package_root,
      plan,
      apply,
      applied: false,
    };
    // Up to date is a no-op; an unknown latest still runs: npm itself knows what @latest is.
    if (!apply || check.status === 'up_to_date' || check.status === 'ahead') return result;
    ctx.log(`running ${plan.argv!.join(' ')}`);
    return { ...result, applied: true, output: await runUpgrade(plan) };
  },
  cli: {
    command: 'version upgrade',
    human: (r) =>
      `${keyValues({ installed: r.installed, latest: r.latest ?? 'unknown', channel: r.channel, plan: r.plan.instructions })}${
        r.applied ? '\nupgraded' : r.apply ? '\nnothing to do' : '\n(plan only; pass --apply to run it)'
      }`,
  },
  mcp: {
    tool: 'hub_version_upgrade',
    when: 'Use when upgrading hub; works without a manifest.',
  },
});
