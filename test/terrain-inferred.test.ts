import { afterAll, describe, expect, it } from 'vitest';
import { buildGraphWorkspace, ECOSYSTEM_EDGES } from './fixtures/graph-workspace.js';
import { removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
type Json = any;

describe("terrain's inferred arcs are the workspace graph's inferred edges", () => {
  // One declared relationship that the package files also prove (back/api -> back/auth via go.mod).
  const ws = buildGraphWorkspace([
    {
      id: 'api-auth',
      from: { project: 'back', repo: 'api' },
      to: { project: 'back', repo: 'auth' },
      type: 'depends_on',
    },
  ]);
  const terrain = (...extra: string[]) => {
    const r = runHub([
      '-c',
      ws.manifestPath,
      'workspace',
      'terrain',
      '--detail',
      'enriched',
      '--limit',
      '100',
      '--json',
      ...extra,
    ]);
    expect(r.code, r.stderr).toBe(0);
    return r.json() as Json;
  };
  afterAll(() => removeTempDir(ws.root));

  it('draws every repo-to-repo edge the package files prove, with its file, and none twice', () => {
    const t = terrain();
    const inferred = t.dependencies.filter((d: Json) => d.source === 'inferred');
    // ext/sdk is a curated external node: it has no terrain cell; back/api -> back/auth is declared already.
    const expected = ECOSYSTEM_EDGES.filter(
      (e) => e.to !== 'ext/sdk' && !(e.from === 'back/api' && e.to === 'back/auth'),
    );
    expect(inferred.map((d: Json) => `${d.from_id} -> ${d.to_id} ${d.evidence}`).sort()).toEqual(
      expected.map((e) => `repo:${e.from} -> repo:${e.to} ${e.file}:${e.line}`).sort(),
    );
    expect(t.inferred).toEqual({ requested: true, available: true, edge_count: expected.length });
    const manual = t.dependencies.filter((d: Json) => d.source === 'manual');
    expect(manual.map((d: Json) => `${d.from_id} -> ${d.to_id}`)).toEqual([
      'repo:back/api -> repo:back/auth',
    ]);
    const auth = t.nodes.find((n: Json) => n.id === 'repo:back/auth');
    expect(auth.dependencies).toMatchObject({ declared_in: 1, inferred_in: 1 });
  });

  it('reads no package file when inferred arcs are not wanted', () => {
    const t = terrain('--no-include-inferred');
    expect(t.dependencies.filter((d: Json) => d.source === 'inferred')).toEqual([]);
    expect(t.inferred).toMatchObject({ requested: false, edge_count: 0 });
  });
});
