// Plain arithmetic of the scene (no three.js objects): the arc line buffers and the arrow-key neighbour.
import type { Arc, Tile } from './model';

/** Segments per arc; inferred arcs draw every other one (dashed) in the same single line set. */
export const ARC_SEGMENTS = 16;

/**
 * Every arc as a quadratic curve from the top of one tile to the top of another, lifted by its consumer count and
 * length, as line-segment pairs with a colour per vertex: one buffer, one draw call for all arcs.
 */
export function arcPositions(
  tiles: readonly Tile[],
  arcs: readonly Arc[],
  tops: Float32Array,
): { positions: Float32Array; colors: Float32Array; drawn: number } {
  const positions = new Float32Array(arcs.length * ARC_SEGMENTS * 6);
  const colors = new Float32Array(arcs.length * ARC_SEGMENTS * 6);
  let k = 0;
  let drawn = 0;
  for (const a of arcs) {
    const p0 = tiles[a.from];
    const p2 = tiles[a.to];
    if (!p0 || !p2) continue;
    drawn++;
    const y0 = (tops[a.from] ?? 0) + 0.1;
    const y2 = (tops[a.to] ?? 0) + 0.1;
    const len = Math.hypot(p2.x - p0.x, p2.z - p0.z);
    const apex = Math.max(y0, y2) + a.lift + Math.min(10, len * 0.12);
    const mx = (p0.x + p2.x) / 2;
    const mz = (p0.z + p2.z) / 2;
    // Control point so that the curve's midpoint reaches the apex: 2 * apex - (y0 + y2) / 2.
    const cy = 2 * apex - (y0 + y2) / 2;
    const r = ((a.color >> 16) & 255) / 255;
    const g = ((a.color >> 8) & 255) / 255;
    const b = (a.color & 255) / 255;
    const at = (t: number, out: number) => {
      const u = 1 - t;
      positions[out] = u * u * p0.x + 2 * u * t * mx + t * t * p2.x;
      positions[out + 1] = u * u * y0 + 2 * u * t * cy + t * t * y2;
      positions[out + 2] = u * u * p0.z + 2 * u * t * mz + t * t * p2.z;
      colors[out] = r;
      colors[out + 1] = g;
      colors[out + 2] = b;
    };
    for (let i = 0; i < ARC_SEGMENTS; i++) {
      if (a.dashed && i % 2 === 1) continue;
      at(i / ARC_SEGMENTS, k);
      at((i + 1) / ARC_SEGMENTS, k + 3);
      k += 6;
    }
  }
  return { positions: positions.subarray(0, k), colors: colors.subarray(0, k), drawn };
}

/**
 * The nearest tile from `from` in a screen direction, given the camera's forward vector on the ground (fx, fz):
 * among tiles within 60 degrees of the direction, the one with the least distance plus sideways drift. With no
 * tile selected, the first tile.
 */
export function neighbourOf(
  tiles: readonly Tile[],
  from: number | null,
  dir: 'up' | 'down' | 'left' | 'right',
  fx: number,
  fz: number,
): number | null {
  if (from === null || !tiles[from]) return tiles.length > 0 ? 0 : null;
  const o = tiles[from];
  const len = Math.hypot(fx, fz) || 1;
  const f = { x: fx / len, z: fz / len };
  const rt = { x: -f.z, z: f.x };
  const d =
    dir === 'up' ? f : dir === 'down' ? { x: -f.x, z: -f.z } : dir === 'right' ? rt : { x: -rt.x, z: -rt.z };
  let best: number | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const t of tiles) {
    if (t.index === from) continue;
    const dx = t.x - o.x;
    const dz = t.z - o.z;
    const along = dx * d.x + dz * d.z;
    if (along <= 0.01) continue;
    const side = Math.abs(dx * -d.z + dz * d.x);
    if (side > along * 1.75) continue;
    const score = along + side * 2;
    if (score < bestScore) {
      bestScore = score;
      best = t.index;
    }
  }
  return best ?? from;
}
