// From terrain rows to what each layer draws for each tile: plain numbers, no three.js, so the rules are one
// readable place (docs/ui.md "Repository Terrain" lists them) and the scene only places instances.
import type { TerrainDependency, TerrainNode, TerrainRegion } from '../../api/terrain';
import { type Label, type LayoutMode, type Plate, placeTiles } from './layout';
import { BASE, GHOST } from './model-constants';
import { mix, type Palette } from './palette';

export { BASE, CELL, TILE } from './model-constants';

export interface Tile {
  index: number;
  id: string;
  x: number;
  z: number;
  /** Slab height before any depression (a repository with no checkout is a low ghost). */
  height: number;
  /** Synced tile colour (state colour, darkened and faded as the server's visual says). */
  color: number;
  /** Bulge height above the lid (0: none). */
  bulge: number;
  bulgeColor: number;
  /** How far the slab sinks (0: none). */
  depression: number;
  poolColor: number;
  /** Branch-colour lid (null: git state unknown or no branch). */
  roof: number | null;
  crack: boolean;
  beacon: number | null;
  /** Activity pulse strength 0..1 (0: no ring). */
  pulse: number;
  owner: number | null;
  agent: { color: number; scale: number } | null;
}

export interface Arc {
  id: string;
  from: number;
  to: number;
  color: number;
  dashed: boolean;
  /** Apex height above the higher end. */
  lift: number;
}

export interface TerrainModel {
  tiles: Tile[];
  arcs: Arc[];
  plates: Plate[];
  labels: Label[];
  /** id -> tile index. */
  index: Map<string, number>;
  /** Which rows it was built from (timing marks tell first tiles from enriched ones). */
  detail: 'manifest' | 'enriched';
}

/** FNV-1a: a stable colour slot per owner key. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function tileColor(n: TerrainNode, p: Palette): number {
  const v = n.visual;
  let base: number;
  if (v.state === 'manifest') base = p.tile.unknown;
  else if (v.state === 'git_error') base = p.tile.error;
  else if (n.local_status !== 'synced' || v.state === 'not_git' || v.color === 'gray') base = p.tile.missing;
  else base = p.tile.synced;
  // Darken towards black (behind, inactive, abandoned); fade towards the background (abandoned, missing).
  const dark = mix(base, p.dark ? 0x000000 : 0x1b1d21, v.darken * 0.8);
  return mix(dark, p.background, v.fade);
}

/** The readiness of a row: the server's, else (manifest detail) what the manifest alone says. */
export function readinessOf(n: TerrainNode): 'ready' | 'partial' | 'none' {
  if (n.agent.readiness) return n.agent.readiness;
  return n.agent.has_agent_instructions ? 'ready' : 'none';
}

export function describeTile(n: TerrainNode, index: number, p: Palette): Tile {
  const v = n.visual;
  const e = Math.max(-3, Math.min(4, v.elevation));
  const behindHeavy = v.state === 'behind_heavy';
  const git = n.git;
  const beaconKind = n.ci.beacon ?? (n.ci.declared ? 'unchecked' : null);
  const readiness = readinessOf(n);
  const score = n.agent.documentation_score;
  return {
    index,
    id: n.id,
    x: n.coordinates.x,
    z: n.coordinates.y,
    height: n.local_status === 'synced' ? BASE : GHOST,
    color: tileColor(n, p),
    bulge: e > 0 ? 0.3 + 0.8 * e : 0,
    bulgeColor: mix(p.bulge.low, p.bulge.high, e / 2.5),
    depression: e < 0 ? Math.min(BASE - 0.14, 0.16 + 0.14 * -e) : 0,
    poolColor: behindHeavy ? p.pool.heavy : p.pool.behind,
    roof: git?.branch_kind ? p.branch[git.branch_kind] : null,
    crack: v.crack > 0 || (git?.merge_conflicts ?? 0) > 0,
    beacon: beaconKind && beaconKind !== 'none' ? p.ci[beaconKind] : null,
    pulse: Math.max(0, Math.min(1, n.activity?.pulse ?? v.pulse ?? 0)),
    owner: n.ownership ? p.owners[hashKey(n.ownership.key) % p.owners.length]! : null,
    agent:
      readiness === 'none'
        ? null
        : {
            color: readiness === 'ready' ? p.agent.ready : p.agent.partial,
            scale: readiness === 'ready' ? 0.8 + 0.5 * (score ?? 0.4) : 0.6,
          },
  };
}

export function describeArc(d: TerrainDependency, from: number, to: number, p: Palette): Arc {
  return {
    id: d.id,
    from,
    to,
    color: p.arc[d.health] ?? p.arc.healthy,
    dashed: d.source === 'inferred',
    lift: Math.min(8, 1.4 + 0.3 * d.consumer_count),
  };
}

export function buildModel(
  nodes: readonly TerrainNode[],
  deps: readonly TerrainDependency[],
  regions: readonly TerrainRegion[],
  p: Palette,
  layout: LayoutMode = 'server',
  detail: 'manifest' | 'enriched' = 'manifest',
): TerrainModel {
  const placed = placeTiles(nodes, regions, layout);
  const tiles = nodes.map((n, i) => {
    const t = describeTile(n, i, p);
    t.x = placed.x[i]!;
    t.z = placed.z[i]!;
    return t;
  });
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const arcs: Arc[] = [];
  for (const d of deps) {
    const from = index.get(d.from_id);
    const to = index.get(d.to_id);
    if (from !== undefined && to !== undefined && from !== to) arcs.push(describeArc(d, from, to, p));
  }
  return { tiles, arcs, index, plates: placed.plates, labels: placed.labels, detail };
}
