// The shapes of the layers, each built once and shared by every instance of its layer. Unit sizes: the
// instance matrix scales them (tile height, bulge height, marker size).
import {
  AdditiveBlending,
  BoxGeometry,
  BufferGeometry,
  CircleGeometry,
  CylinderGeometry,
  Float32BufferAttribute,
  MeshBasicMaterial,
  NormalBlending,
  RingGeometry,
} from 'three';
import { mergeGeometries, mergeVertices } from 'three/addons/utils/BufferGeometryUtils.js';
import { CELL, TILE } from './model-constants';

/** Where the light comes from (above, south-east): faces facing it are bright, others darker. */
const LIGHT = [0.49, 0.81, 0.29] as const;

type V = readonly [number, number, number];

/** Brightness of a face whose normal is (nx, ny, nz). */
function shadeOf(nx: number, ny: number, nz: number): number {
  const len = Math.hypot(nx, ny, nz) || 1;
  return 0.6 + 0.45 * Math.max(0, (nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len);
}

/**
 * A convex shape from its faces (polygons, any winding: each is turned to face away from `center`), indexed with
 * four vertices per quad, and its lighting baked in as a per-vertex shade (`color`) for MeshBasicMaterial with
 * vertexColors: the instance colour times the shade. No light in the fragment shader and few vertices: with
 * 5,000 tiles a software rasteriser spends its time per vertex and per pixel.
 */
export function faceted(faces: readonly (readonly V[])[], center: V): BufferGeometry {
  const positions: number[] = [];
  const colors: number[] = [];
  const index: number[] = [];
  for (const face of faces) {
    const [a, b, c] = face as [V, V, V];
    let nx = (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]);
    let ny = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
    let nz = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    const mid = [0, 1, 2].map((k) => face.reduce((sum, v) => sum + v[k]!, 0) / face.length - center[k]!);
    const outward = nx * mid[0]! + ny * mid[1]! + nz * mid[2]! >= 0;
    const verts = outward ? face : [...face].reverse();
    if (!outward) [nx, ny, nz] = [-nx, -ny, -nz];
    const shade = shadeOf(nx, ny, nz);
    const base = positions.length / 3;
    for (const v of verts) {
      positions.push(...v);
      colors.push(shade, shade, shade);
    }
    for (let k = 1; k < verts.length - 1; k++) index.push(base, base + k, base + k + 1);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(positions, 3));
  g.setAttribute('color', new Float32BufferAttribute(colors, 3));
  g.setIndex(index);
  return g;
}

/** A square frustum standing on y = 0 with half-widths `bottom` and `top`, height 1; no bottom face (never seen). */
function frustum(bottom: number, top: number): BufferGeometry {
  const ring = (r: number, y: number): V[] => [
    [-r, y, -r],
    [r, y, -r],
    [r, y, r],
    [-r, y, r],
  ];
  const lo = ring(bottom, 0);
  const hi = ring(top, 1);
  const sides = [0, 1, 2, 3].map((k) => [lo[k]!, lo[(k + 1) % 4]!, hi[(k + 1) % 4]!, hi[k]!]);
  return faceted([hi, ...sides], [0, 0.5, 0]);
}

/** The tile: a unit box standing on y = 0 (20 vertices: no bottom face). Also the region plates. */
export function standingBox(): BufferGeometry {
  return frustum(0.5, 0.5);
}

/** The branch lid: the top face of a unit box (4 vertices), laid on the tile. */
export function lid(): BufferGeometry {
  return faceted(
    [
      [
        [-0.5, 1, -0.5],
        [0.5, 1, -0.5],
        [0.5, 1, 0.5],
        [-0.5, 1, 0.5],
      ],
    ],
    [0, 0, 0],
  );
}

/** The bulge: a four-sided mound (truncated pyramid) of unit height standing on y = 0. */
export function mound(): BufferGeometry {
  return frustum(0.62, 0.28);
}

/** The depression's pool: a flat disc on the lid (twelve triangles: 5,000 of them stay cheap in software GL). */
export function pool(): BufferGeometry {
  return new CircleGeometry(0.7, 10).rotateX(-Math.PI / 2).translate(0, 0.03, 0);
}

/** Conflict cracks: jagged strips lying flat, radiating from the middle of the tile to its edges. */
export function cracks(): BufferGeometry {
  const positions: number[] = [];
  // Deterministic jags: angle of each crack and the sideways wobble of its joints.
  const rays = [0.35, 1.9, 3.3, 4.6, 5.7];
  const wobble = [0.18, -0.22, 0.15, -0.12];
  for (const [k, a] of rays.entries()) {
    const pts: Array<[number, number]> = [];
    for (let j = 0; j <= 4; j++) {
      const r = 0.15 + (j / 4) * 0.9;
      const w = j === 0 || j === 4 ? 0 : (wobble[(j + k) % wobble.length] ?? 0);
      pts.push([Math.cos(a + w) * r, Math.sin(a + w) * r]);
    }
    for (let j = 0; j < pts.length - 1; j++) {
      const [x0, z0] = pts[j]!;
      const [x1, z1] = pts[j + 1]!;
      const len = Math.hypot(x1 - x0, z1 - z0) || 1;
      const half = 0.11 * (1 - j / 5);
      const nx = (-(z1 - z0) / len) * half;
      const nz = ((x1 - x0) / len) * half;
      positions.push(x0 + nx, 0, z0 + nz, x1, 0, z1, x0 - nx, 0, z0 - nz);
      positions.push(x0 + nx, 0, z0 + nz, x1 + nx * 0.6, 0, z1 + nz * 0.6, x1, 0, z1);
    }
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(positions, 3));
  g.computeVertexNormals();
  return g;
}

/** The CI beacon: a thin mast with a lamp on top, standing on y = 0. */
export function beacon(): BufferGeometry {
  const bare = (g: BufferGeometry) => {
    g.deleteAttribute('normal');
    g.deleteAttribute('uv');
    return mergeVertices(g);
  };
  // Unlit (a light): positions only, indexed, 14 vertices.
  const mast = bare(new CylinderGeometry(0.06, 0.06, 1.3, 3, 1, true).translate(0, 0.65, 0));
  // A lamp (a cube on its corner), unlike the agent marker's diamond.
  const light = bare(
    new BoxGeometry(0.3, 0.3, 0.3)
      .rotateX(Math.PI / 4)
      .rotateY(Math.PI / 4)
      .translate(0, 1.45, 0),
  );
  const merged = mergeGeometries([mast, light]);
  if (!merged) throw new Error('beacon geometry could not be merged');
  return merged;
}

/** The activity pulse: a flat ring around the tile on the ground. */
export function ring(): BufferGeometry {
  return new RingGeometry(1.3, 1.52, 12, 1).rotateX(-Math.PI / 2).translate(0, 0.03, 0);
}

/**
 * Ownership: the ground of a tile's cell around the tile, a square frame (the part under the tile would never be
 * seen, and would cost a software rasteriser as much as the visible part). Frames of one owner touch and read as
 * one territory.
 */
export function cell(): BufferGeometry {
  const o = CELL / 2;
  const i = TILE / 2;
  const y = 0.012;
  // Outer corners 0-3, inner corners 4-7; each side a trapezoid of two triangles (8 vertices in all).
  const positions = [-o, y, -o, o, y, -o, o, y, o, -o, y, o, -i, y, -i, i, y, -i, i, y, i, -i, y, i];
  const index: number[] = [];
  for (let k = 0; k < 4; k++) {
    const n = (k + 1) % 4;
    index.push(k, n, 4 + n, k, 4 + n, 4 + k);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(positions, 3));
  g.setIndex(index);
  return g;
}

/** The agent-readiness marker: a floating diamond (an octahedron, faceted: 24 vertices). */
export function diamond(): BufferGeometry {
  const top: V = [0, 0.45, 0];
  const bottom: V = [0, -0.45, 0];
  const rim: V[] = [
    [0.3, 0, 0],
    [0, 0, 0.3],
    [-0.3, 0, 0],
    [0, 0, -0.3],
  ];
  const faces = rim.flatMap((v, k) => {
    const w = rim[(k + 1) % 4]!;
    return [
      [top, v, w],
      [bottom, w, v],
    ];
  });
  return faceted(faces, [0, 0, 0]);
}

/**
 * The pulse material: rings grow and fade with a time uniform and two per-instance attributes (strength,
 * phase), so an animation frame changes one uniform and no buffer.
 */
export function pulseMaterial(dark: boolean): { material: MeshBasicMaterial; time: { value: number } } {
  const time = { value: 0 };
  const material = new MeshBasicMaterial({
    transparent: true,
    depthWrite: false,
    blending: dark ? AdditiveBlending : NormalBlending,
  });
  material.onBeforeCompile = (shader) => {
    shader.uniforms.uTime = time;
    shader.vertexShader = shader.vertexShader
      .replace(
        '#include <common>',
        '#include <common>\nattribute float aPulse;\nattribute float aPhase;\nattribute vec2 aCenter;\nuniform float uTime;\nvarying float vAlpha;',
      )
      .replace(
        '#include <begin_vertex>',
        '#include <begin_vertex>\nfloat k = fract(uTime * (0.35 + 0.5 * aPulse) + aPhase);\ntransformed.xz = aCenter + (transformed.xz - aCenter) * (0.85 + 0.55 * k);\nvAlpha = aPulse * (1.0 - k);',
      );
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying float vAlpha;')
      .replace('#include <alphamap_fragment>', '#include <alphamap_fragment>\ndiffuseColor.a *= vAlpha;');
  };
  return { material, time };
}
