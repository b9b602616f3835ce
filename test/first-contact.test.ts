// Issue 26, "real repositories at first contact": hub init, component detect and the graph through the built CLI
// on synthetic checkouts shaped like real layouts (test/fixtures/real-layouts.ts), the way a user first meets hub:
// init, look, apply, graph.
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTempDir, git, makeGitRepo, removeTempDir } from './fixtures/index.js';
import {
  originOf,
  REAL_EVIDENCE,
  REAL_LAYOUTS,
  REAL_PACKAGES,
  writeRealLayouts,
} from './fixtures/real-layouts.js';
import { runHub } from './run-hub.js';

interface Cand {
  project: string;
  repo: string;
  path: string;
  name: string;
  kind: string;
  package?: string;
  role?: string;
}
interface Ev {
  file: string;
  line?: number;
  scope?: string;
}
interface Edge {
  from_id: string;
  to_id: string;
  source: string;
  evidence?: Ev[];
}

let ws: string;
beforeAll(() => {
  ws = writeRealLayouts();
});
afterAll(() => removeTempDir(ws));

const hub = (args: string[]) => runHub([...args, '--json'], { cwd: ws });
const repoIds = Object.keys(REAL_LAYOUTS);

/** `repo:<id>` -> sorted `to file:line scope` lines of the inferred edges. */
function evidenceOf(edges: Edge[]): string[] {
  return edges
    .filter((e) => e.source === 'inferred')
    .flatMap((e) =>
      (e.evidence ?? []).map(
        (v) => `${e.from_id.slice(5)} -> ${e.to_id.slice(5)} ${v.file}:${v.line} ${v.scope}`,
      ),
    )
    .sort();
}
const TRUE_EVIDENCE = REAL_EVIDENCE.map((t) => `${t.from} -> ${t.to} ${t.file}:${t.line} ${t.scope}`).sort();

describe('first contact: hub init, component detect, graph', () => {
  it('hub init records the origin of every checkout (url-only where the checkout sits at <project>/<repo>)', () => {
    const r = hub(['init']);
    expect(r.code, r.stderr).toBe(0);
    const m = parse(readFileSync(`${ws}/.hub.yml`, 'utf8'));
    const repos = m.workspace.projects.flatMap((p: { name: string; repos: Array<Record<string, string>> }) =>
      p.repos.map((x) => ({ id: `${p.name}/${x.name}`, ...x })),
    );
    expect(repos.map((x: { id: string }) => x.id).sort()).toEqual([...repoIds].sort());
    for (const x of repos)
      expect(x, x.id).toEqual({ id: x.id, name: x.id.split('/')[1], url: originOf(x.id) });
    expect(hub(['config', 'validate']).code).toBe(0);
  });

  it('component detect finds every real package, roots included, with its kind and role', () => {
    const r = hub(['component', 'detect']);
    expect(r.code, r.stderr).toBe(0);
    const got: Record<string, Record<string, [string, string, string?]>> = {};
    for (const c of r.json().candidates as Cand[]) {
      const id = `${c.project}/${c.repo}`;
      got[id] ??= {};
      got[id][c.path] = c.role ? [c.package ?? '-', c.kind, c.role] : [c.package ?? '-', c.kind];
    }
    expect(got).toEqual(REAL_PACKAGES);
    // The repository's own package comes first and takes the repository's name.
    const webfw = (r.json().candidates as Cand[]).filter((c) => c.repo === 'webfw');
    expect(webfw[0]).toMatchObject({ path: '.', name: 'webfw' });
  });

  it('the graph reads pnpm workspace members before any component is catalogued', () => {
    const r = hub(['graph']);
    expect(r.code, r.stderr).toBe(0);
    const edges = r.json().edges as Edge[];
    const pairs = new Set(edges.filter((e) => e.source === 'inferred').map((e) => `${e.from_id} ${e.to_id}`));
    expect(pairs).toContain('repo:js/mono repo:js/webfw');
    expect(pairs).toContain('repo:js/mono repo:js/node-adapter');
    // Nodes of checkouts with an origin say where they come from.
    const nodes = r.json().nodes as Array<{ id: string; kind: string; provider: string; url?: string }>;
    for (const n of nodes.filter((x) => x.kind === 'repo'))
      expect([n.id, n.provider, n.url]).toEqual([n.id, 'github', originOf(n.id.slice(5))]);
  });

  it('component detect --apply writes the manifest once, roles as tags', async () => {
    const renames = await countManifestWrites(() => {
      const r = hub(['component', 'detect', '--apply']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().applied).toBe(true);
    });
    expect(renames).toBe(1);
    const list = hub(['component', 'list']).json().components as Array<Record<string, unknown>>;
    const count = Object.values(REAL_PACKAGES).reduce((n, p) => n + Object.keys(p).length, 0);
    expect(list).toHaveLength(count);
    expect(list.find((c) => c.id === 'rs/app-crate/fuzz')).toMatchObject({
      path: 'fuzz',
      kind: 'application',
      tags: { role: 'fuzz' },
    });
    expect(list.find((c) => c.id === 'js/webfw/webfw')).toMatchObject({ path: '.', kind: 'library' });
    expect(list.find((c) => c.id === 'js/webfw/webfw')?.tags).toBeUndefined();
  });

  it('the graph then has every true edge and cites every line right, indirect where it is', () => {
    const r = hub(['graph']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().inference.skipped).toEqual([]);
    expect(evidenceOf(r.json().edges)).toEqual(TRUE_EVIDENCE);
  });
});

describe('hub init and origins outside <project>/<repo>', () => {
  it('keeps path there, the origin as source; credentials and refused transports never written', () => {
    const dir = createTempDir('hub-init-origins-');
    try {
      const repo = (rel: string, origin?: string) => {
        makeGitRepo(`${dir}/${rel}`, { 'README.md': 'x\n' });
        if (origin) git(`${dir}/${rel}`, ['remote', 'add', 'origin', origin]);
      };
      repo('tool', 'git@gitlab.com:acme/platform/tool.git');
      repo('team/svc', 'https://ci-bot:glpat-SECRET@github.com/acme/svc.git');
      repo('team/odd', 'ext::sh -c touch% /tmp/pwned');
      repo('team/none');
      repo('deep/er/lib', 'https://github.com/acme/lib');
      const r = runHub(['init', '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const text = readFileSync(`${dir}/.hub.yml`, 'utf8');
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('ext::');
      const m = parse(text);
      const byName = Object.fromEntries(
        m.workspace.projects.flatMap((p: { repos: Array<{ name: string }> }) =>
          p.repos.map((x) => [x.name, x]),
        ),
      );
      expect(byName).toEqual({
        tool: {
          name: 'tool',
          path: './tool',
          source: { provider: 'gitlab', namespace: 'acme/platform', repo: 'tool' },
        },
        svc: { name: 'svc', url: 'https://github.com/acme/svc.git' },
        odd: { name: 'odd', path: './team/odd' },
        none: { name: 'none', path: './team/none' },
        lib: {
          name: 'lib',
          path: './deep/er/lib',
          source: { provider: 'github', namespace: 'acme', repo: 'lib' },
        },
      });
      expect(runHub(['config', 'validate'], { cwd: dir }).code).toBe(0);
      const nodes = runHub(['graph', '--json'], { cwd: dir }).json().nodes as Array<{
        label: string;
        provider: string;
      }>;
      expect(Object.fromEntries(nodes.map((n) => [n.label, n.provider]))).toMatchObject({
        tool: 'gitlab',
        svc: 'github',
        odd: 'local',
        none: 'local',
        lib: 'github',
      });
    } finally {
      removeTempDir(dir);
    }
  });
});

/** Atomic writes of .hub.yml seen while `run` runs: each lands as one rename onto the file. */
async function countManifestWrites(run: () => void): Promise<number> {
  let n = 0;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(ws, (event, file) => {
      if (event === 'rename' && file === '.hub.yml') n++;
    });
    run();
    // The events are queued by the kernel before the write returns; let the loop deliver them.
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    watcher?.close();
  }
  return n;
}
