// Where tiles stand. `server`: the coordinates /v3/ops/terrain gives (projects 24 apart on x, folder groups down
// z), the same on every page. `blocks`: each project's tiles wrapped into a near-square block, blocks in rows; for
// workspaces whose projects are long single folders (5,000 url-only repositories make 25 strips 200 tiles long).
import type { TerrainNode, TerrainRegion } from '../../api/terrain';
import { CELL } from './model-constants';

export type LayoutMode = 'server' | 'blocks';

export interface Plate {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

export interface Label {
  text: string;
  x: number;
  z: number;
}

export interface Placement {
  /** x and z of each node, in node order. */
  x: Float64Array;
  z: Float64Array;
  plates: Plate[];
  labels: Label[];
}

const pad = CELL / 2;

function extend(b: Plate | undefined, next: Plate): Plate {
  if (!b) return { ...next };
  return {
    minX: Math.min(b.minX, next.minX),
    maxX: Math.max(b.maxX, next.maxX),
    minZ: Math.min(b.minZ, next.minZ),
    maxZ: Math.max(b.maxZ, next.maxZ),
  };
}

/** The server's layout: a plate per region (folder group), a label per project at its far edge. */
function serverLayout(nodes: readonly TerrainNode[], regions: readonly TerrainRegion[]): Placement {
  const x = Float64Array.from(nodes, (n) => n.coordinates.x);
  const z = Float64Array.from(nodes, (n) => n.coordinates.y);
  const byProject = new Map<string, Plate>();
  const plates = regions.map((r) => {
    const p = { minX: r.min_x - pad, maxX: r.max_x + pad, minZ: r.min_y - pad, maxZ: r.max_y + pad };
    byProject.set(r.project_name, extend(byProject.get(r.project_name), p));
    return p;
  });
  const labels = [...byProject].map(([text, b]) => ({ text, x: (b.minX + b.maxX) / 2, z: b.minZ - 0.6 }));
  return { x, z, plates, labels };
}

/** Projects as near-square blocks (in manifest order, tiles in server order), blocks wrapped into rows. */
function blocksLayout(nodes: readonly TerrainNode[]): Placement {
  const groups = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    const g = groups.get(n.project_name);
    if (g) g.push(i);
    else groups.set(n.project_name, [i]);
  });
  for (const g of groups.values()) {
    g.sort(
      (a, b) =>
        nodes[a]!.coordinates.x - nodes[b]!.coordinates.x ||
        nodes[a]!.coordinates.y - nodes[b]!.coordinates.y,
    );
  }
  const x = new Float64Array(nodes.length);
  const z = new Float64Array(nodes.length);
  const plates: Plate[] = [];
  const labels: Label[] = [];
  const gap = 2 * CELL;
  // Row width: about the square root of the total area, so the whole map is roughly square.
  let area = 0;
  for (const g of groups.values()) {
    const cols = Math.ceil(Math.sqrt(g.length));
    area += (cols * CELL + gap) * (Math.ceil(g.length / cols) * CELL + gap);
  }
  const rowWidth = Math.max(Math.sqrt(area), CELL * 4);
  let ox = 0;
  let oz = 0;
  let rowDepth = 0;
  for (const [project, g] of groups) {
    const cols = Math.ceil(Math.sqrt(g.length));
    const rows = Math.ceil(g.length / cols);
    const w = cols * CELL;
    const d = rows * CELL;
    if (ox > 0 && ox + w > rowWidth) {
      ox = 0;
      oz += rowDepth + gap;
      rowDepth = 0;
    }
    g.forEach((i, k) => {
      x[i] = ox + (k % cols) * CELL;
      z[i] = oz + Math.floor(k / cols) * CELL;
    });
    plates.push({ minX: ox - pad, maxX: ox + w - CELL + pad, minZ: oz - pad, maxZ: oz + d - CELL + pad });
    labels.push({ text: project, x: ox + (w - CELL) / 2, z: oz - pad - 0.6 });
    ox += w + gap;
    rowDepth = Math.max(rowDepth, d);
  }
  return { x, z, plates, labels };
}

export function placeTiles(
  nodes: readonly TerrainNode[],
  regions: readonly TerrainRegion[],
  mode: LayoutMode,
): Placement {
  return mode === 'blocks' ? blocksLayout(nodes) : serverLayout(nodes, regions);
}
