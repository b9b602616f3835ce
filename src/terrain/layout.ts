import type { TerrainRegion } from './types.js';

/** Distance between projects on x. */
export const PROJECT_SPACING = 24;
/** Indent per folder level on x, and the step between sibling repositories on y. */
export const CELL = 2.8;

export interface LayoutItem {
  id: string;
  project: string;
  /** Checkout folder relative to the workspace root, `/`-separated. */
  path: string;
}

export interface Placed {
  x: number;
  y: number;
  region: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.');
const depthOf = (dir: string) => (dir === '.' ? 0 : dir.split('/').length);

/**
 * A deterministic map of the workspace: projects side by side (PROJECT_SPACING apart on x, in manifest order),
 * within a project repositories grouped by the folder that holds their checkout (groups sorted by folder, deeper
 * folders indented by CELL on x), siblings CELL apart on y, a blank row between groups. Each group is a region
 * (its bounding box). Computed over every repository in scope, so pages of nodes stitch together.
 */
export function layoutTerrain(items: readonly LayoutItem[]): {
  placed: Map<string, Placed>;
  regions: TerrainRegion[];
} {
  const projects = new Map<string, LayoutItem[]>();
  for (const it of items)
    (projects.get(it.project) ?? projects.set(it.project, []).get(it.project)!).push(it);
  const placed = new Map<string, Placed>();
  const regions: TerrainRegion[] = [];
  [...projects].forEach(([project, repos], pi) => {
    const groups = new Map<string, LayoutItem[]>();
    for (const r of repos) {
      const dir = parentOf(r.path);
      (groups.get(dir) ?? groups.set(dir, []).get(dir)!).push(r);
    }
    const dirs = [...groups.keys()].sort();
    const minDepth = Math.min(...dirs.map(depthOf));
    let y = 0;
    for (const dir of dirs) {
      const members = groups.get(dir)!;
      const x = round(pi * PROJECT_SPACING + (depthOf(dir) - minDepth) * CELL);
      const id = `region:${project}:${dir}`;
      members.forEach((r, i) => {
        placed.set(r.id, { x, y: round(y + i * CELL), region: id });
      });
      regions.push({
        id,
        label: dir === '.' ? project : dir,
        project_name: project,
        min_x: x,
        max_x: x,
        min_y: round(y),
        max_y: round(y + (members.length - 1) * CELL),
      });
      y += (members.length + 1) * CELL;
    }
  });
  return { placed, regions };
}
