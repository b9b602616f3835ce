import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inspectTarget, installedAgent, MAX_MANAGED_BYTES } from '../install/index.js';
import { type InstallScope, skillPath, type VendorSpec } from '../vendors.js';

/** Where an install scope resolves for one dispatch, or why it cannot. */
export interface ScopeRoot {
  /** The folder the scope's vendor paths start from; absent when the scope is unavailable. */
  base?: string;
  /** Why it is unavailable (no home folder, repository not checked out, outside the workspace, no git). */
  unavailable?: string;
}

/** Whether one file (an agent file or a SKILL.md) is installed in one scope. */
export interface ArtifactState {
  scope: InstallScope;
  path: string | null;
  exists: boolean;
  /**
   * The installs room's view of an agent file: `intact` (hub wrote it, unchanged), `edited`, `none` (no hub
   * marker), `unreadable` (a link, a FIFO, an oversized file); null when absent or not judged.
   */
  state: 'intact' | 'edited' | 'none' | 'unreadable' | null;
  /** Why the scope could not be judged, or why what is there is not usable. */
  problem?: string;
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file in a worktree); undefined if none. */
export function gitRootOf(dir: string): string | undefined {
  let at = dir;
  for (;;) {
    if (existsSync(join(at, '.git'))) return at;
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

const unavailable = (scope: InstallScope, root: ScopeRoot): ArtifactState => ({
  scope,
  path: null,
  exists: false,
  state: null,
  problem: root.unavailable ?? 'scope unavailable',
});

const rootsOf = (scope: InstallScope, base: string) =>
  scope === 'user' ? { home: base } : { projectRoot: base, home: base };

/**
 * The agent file (agent vendors) or skill (skill vendors) `agent create <name>` installs, in one scope, judged
 * by the installs room (never written). Something hub cannot read there (a link, a FIFO) counts as not installed.
 */
export function agentArtifact(
  vendor: VendorSpec,
  scope: InstallScope,
  root: ScopeRoot,
  name: string,
): ArtifactState {
  if (!root.base) return unavailable(scope, root);
  const a = installedAgent(vendor, scope, rootsOf(scope, root.base), name);
  if (a.state === 'unreadable')
    return {
      scope,
      path: a.path,
      exists: false,
      state: a.state,
      problem: 'something hub does not read is there',
    };
  return { scope, path: a.path, exists: a.exists, state: a.state };
}

/**
 * A skill's SKILL.md for a vendor in one scope. A skill linked in from elsewhere counts as installed (the vendor
 * follows the link); hub only looks, it never reads through it.
 */
export function skillArtifact(
  vendor: VendorSpec,
  scope: InstallScope,
  root: ScopeRoot,
  name: string,
): ArtifactState {
  if (!root.base) return unavailable(scope, root);
  const path = skillPath(vendor, scope, rootsOf(scope, root.base), name);
  const t = inspectTarget(path, { root: root.base, maxBytes: MAX_MANAGED_BYTES });
  if (t.kind === 'absent') return { scope, path, exists: false, state: null };
  return { scope, path, exists: true, state: null, ...(t.kind === 'unsafe' ? { problem: t.reason } : {}) };
}
