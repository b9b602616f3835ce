// The ten layers' meshes and where each tile's shapes go in them: the slab (synced tile), sunk by the
// depression and capped by the branch lid; on the lid the pool, the cracks, the bulge and the CI mast; the agent
// marker above the highest of them; the pulse ring and the ownership frame on the ground.
import { DoubleSide, type Material, Matrix4, MeshBasicMaterial, Quaternion, Vector3 } from 'three';
import * as shapes from './geometries';
import { createLayerMesh, type DrawMode, type LayerMesh } from './layer-mesh';
import type { LayerId, LayerState } from './layers';
import type { Tile } from './model';
import { TILE } from './model-constants';
import type { Palette } from './palette';

/** Height of the branch lid above the slab. */
export const LID = 0.04;
/** The branch lid leaves a rim of the synced tile's colour visible on top. */
const ROOF = 1.45;

/** Render order: big opaque things first, what sits on them next, the ground last (hidden pixels fail early). */
const ORDER: Record<Exclude<LayerId, 'arcs'>, number> = {
  synced: 0,
  branch: 1,
  bulge: 2,
  depression: 3,
  cracks: 3,
  ci: 4,
  agent: 4,
  ownership: 6,
  pulse: 8,
};

export type TileLayers = Map<Exclude<LayerId, 'arcs'>, LayerMesh>;

/** One mesh per tile layer for up to `n` tiles. Lighting is baked into the shapes: every material is unlit. */
export function createTileLayers(mode: DrawMode, n: number, pulse: Material): TileLayers {
  // Merged layers carry each tile's colour in their vertices; instanced ones in instanceColor.
  const unlit = (opts: { side?: typeof DoubleSide } = {}) =>
    new MeshBasicMaterial({ vertexColors: true, ...opts });
  const flat = (opts: { side?: typeof DoubleSide } = {}) =>
    new MeshBasicMaterial({ vertexColors: mode === 'merged', ...opts });
  const layers: TileLayers = new Map();
  const add = (id: Exclude<LayerId, 'arcs'>, mesh: LayerMesh) => {
    mesh.object.renderOrder = ORDER[id];
    mesh.object.frustumCulled = false;
    layers.set(id, mesh);
  };
  add('synced', createLayerMesh(mode, shapes.standingBox(), unlit(), n));
  add('branch', createLayerMesh(mode, shapes.lid(), unlit(), n));
  add('bulge', createLayerMesh(mode, shapes.mound(), unlit(), n));
  add('depression', createLayerMesh(mode, shapes.pool(), flat(), n));
  add('cracks', createLayerMesh(mode, shapes.cracks(), flat(), n));
  add('ci', createLayerMesh(mode, shapes.beacon(), flat(), n));
  add('agent', createLayerMesh(mode, shapes.diamond(), unlit(), n));
  add('ownership', createLayerMesh(mode, shapes.cell(), flat({ side: DoubleSide }), n));
  add('pulse', createLayerMesh(mode, shapes.ring(), pulse, n, true));
  return layers;
}

const m = new Matrix4();
const q = new Quaternion();
const v = new Vector3();
const s = new Vector3();

/**
 * Puts every tile's shapes into the layers (tiles in `order`), and returns each tile's top (where arcs start
 * and the selection outline ends). Layers switched off keep their shapes (a toggle only hides them), except
 * that the depression and the bulge move what sits on top.
 */
export function placeTiles(
  tiles: readonly Tile[],
  order: Uint32Array,
  on: LayerState,
  layers: TileLayers,
  palette: Palette,
  tops: Float32Array,
): void {
  for (const l of layers.values()) l.begin();
  const get = (id: Exclude<LayerId, 'arcs'>) => layers.get(id)!;
  const at = (x: number, y: number, z: number, sx = 1, sy = 1, sz = 1) =>
    m.compose(v.set(x, y, z), q.identity(), s.set(sx, sy, sz));
  for (const i of order) {
    const t = tiles[i]!;
    const h = t.height - (on.depression ? t.depression : 0);
    const lid = h + LID;
    const top = lid + (on.bulge ? t.bulge : 0);
    tops[t.index] = top;
    get('synced').put(t.index, at(t.x, 0, t.z, TILE, h, TILE), t.color);
    if (t.roof !== null) get('branch').put(t.index, at(t.x, h - 1 + LID, t.z, ROOF, 1, ROOF), t.roof);
    if (t.depression > 0) get('depression').put(t.index, at(t.x, lid, t.z), t.poolColor);
    if (t.bulge > 0) get('bulge').put(t.index, at(t.x, lid, t.z, 1, t.bulge, 1), t.bulgeColor);
    if (t.crack) {
      get('cracks').put(t.index, at(t.x, lid + 0.015, t.z), palette.crack);
      // The bulge hides the middle of the lid: the mound's top cracks too.
      if (on.bulge && t.bulge > 0)
        get('cracks').put(t.index, at(t.x, top + 0.015, t.z, 0.42, 1, 0.42), palette.crack);
    }
    if (t.beacon !== null) get('ci').put(t.index, at(t.x + 0.7, lid, t.z - 0.7), t.beacon);
    if (t.pulse > 0)
      get('pulse').put(t.index, at(t.x, 0, t.z), null, { pulse: t.pulse, phase: (t.index * 0.618) % 1 });
    if (t.owner !== null) get('ownership').put(t.index, at(t.x, 0, t.z), t.owner);
    if (t.agent) {
      const k = t.agent.scale;
      get('agent').put(t.index, at(t.x, top + 0.8, t.z, k, k, k), t.agent.color);
    }
  }
  for (const [id, l] of layers) {
    l.end();
    l.object.visible = on[id] && l.count > 0;
  }
}
