import { existsSync, unlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { RefusedError, ValidationError, writeFileAtomicSync } from '../infra/index.js';
import { readManifestFile, yaml } from '../model/index.js';
import { discoverRepos } from './discover.js';

export interface InitResult {
  path: string;
  created: boolean;
  already_initialized: boolean;
  kind: 'workspace' | 'application';
  repos: number;
}

const SCHEMA_LINE =
  '# yaml-language-server: $schema=./node_modules/hub-workspace/schemas/hub.manifest.schema.json';

function draftText(root: string, kind: 'workspace' | 'application'): { text: string; repos: number } {
  const name =
    basename(root)
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'workspace';
  if (kind === 'application') {
    const body = yaml().stringify({ kind: 'application', name, paths: [], components: [] });
    return {
      text: `${SCHEMA_LINE}\n# Application manifest: list this app's parts under paths[] (see \`hub config example\`).\n${body}`,
      repos: 0,
    };
  }
  const found = discoverRepos(root);
  const projects = new Map<string, Array<{ name: string; path: string }>>();
  for (const r of found) {
    const list = projects.get(r.project) ?? [];
    if (!list.some((x) => x.name === r.name)) list.push({ name: r.name, path: r.path });
    projects.set(r.project, list);
  }
  const body = yaml().stringify({
    workspace: {
      name,
      projects:
        projects.size > 0
          ? [...projects].map(([p, repos]) => ({ name: p, repos }))
          : [{ name: 'default', repos: [] }],
    },
  });
  const header = `${SCHEMA_LINE}\n# Created by \`hub init\`: ${found.length} git repositories found. Add components with \`hub component detect --apply\`.\n`;
  return { text: header + body, repos: found.length };
}

/**
 * Creates a manifest. A valid existing one is left alone (already initialized); an invalid one is replaced
 * only with force, and never in agent mode, where the file must be removed first.
 */
export function initManifest(
  path: string,
  opts: { kind: 'workspace' | 'application'; force: boolean; agentMode: boolean },
): InitResult {
  if (existsSync(path)) {
    let valid = true;
    try {
      readManifestFile(path);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      valid = false;
    }
    if (valid && !opts.force)
      return { path, created: false, already_initialized: true, kind: opts.kind, repos: 0 };
    if (opts.agentMode && opts.force) {
      throw new RefusedError(
        `init --force is blocked in agent mode: remove ${path} first if it really should be replaced`,
        {
          path,
          rule: 'agent_mode_force',
        },
      );
    }
    if (!opts.force) {
      throw new RefusedError(
        `${path} exists but is not a valid manifest; fix it (\`hub config validate\`) or pass --force to replace it`,
        {
          path,
          rule: 'exists_invalid',
        },
        409,
      );
    }
    unlinkSync(path);
  }
  const { text, repos } = draftText(dirname(path), opts.kind);
  writeFileAtomicSync(path, text);
  return { path, created: true, already_initialized: false, kind: opts.kind, repos };
}
