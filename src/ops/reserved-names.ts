import type { AppConfig } from '../model/index.js';

/** Basenames of the worktrees and campaigns paths, which projects may not use as names. */
export function reservedProjectNames(config: AppConfig): string[] {
  return [config.workspace.worktrees_path, config.workspace.campaigns_path]
    .map((p) => p.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() ?? '')
    .filter((n) => n !== '' && n !== '.');
}
