// The shapes of the layers, each built once and shared by every instance of its layer. Unit sizes: the
// instance matrix scales them (tile height, bulge height, marker size).
import {
  AdditiveBlending,
  BoxGeometry,
  BufferGeometry,
  CylinderGeometry,
  Float32BufferAttribute,
  MeshBasicMaterial,
  NormalBlending,
  OctahedronGeometry,
  PlaneGeometry,
  RingGeometry,
} from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';
import { CELL } from './model-constants';

/** A unit box standing on y = 0 (tiles, lids, region plates). */
export function standingBox(): BoxGeometry {
  const g = new BoxGeometry(1, 1, 1);
  g.translate(0, 0.5, 0);
  return g;
}

/** The bulge: a four-sided mound (truncated pyramid) of unit height standing on y = 0. */
export function mound(): BufferGeometry {
  const g = new CylinderGeometry(0.38, 0.84, 1, 4, 1);
  g.rotateY(Math.PI / 4);
  g.translate(0, 0.5, 0);
  return g.toNonIndexed();
}

/** The depression's pool: a shallow disc. */
export function pool(): BufferGeometry {
  return new CylinderGeometry(0.7, 0.7, 0.04, 20, 1).translate(0, 0.02, 0);
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
      const r = 0.2 + (j / 4) * 0.9;
      const w = j === 0 || j === 4 ? 0 : (wobble[(j + k) % wobble.length] ?? 0);
      pts.push([Math.cos(a + w) * r, Math.sin(a + w) * r]);
    }
    for (let j = 0; j < pts.length - 1; j++) {
      const [x0, z0] = pts[j]!;
      const [x1, z1] = pts[j + 1]!;
      const len = Math.hypot(x1 - x0, z1 - z0) || 1;
      const half = 0.07 * (1 - j / 5);
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

/** The CI beacon: a thin mast with a diamond on top, standing on y = 0. */
export function beacon(): BufferGeometry {
  const mast = new CylinderGeometry(0.07, 0.07, 1.8, 6, 1).translate(0, 0.9, 0);
  // Polyhedra are built non-indexed already: index the mast's away so the two merge.
  const light = new OctahedronGeometry(0.3, 0).scale(1, 1.3, 1).translate(0, 2.05, 0);
  const merged = mergeGeometries([mast.toNonIndexed(), light]);
  if (!merged) throw new Error('beacon geometry could not be merged');
  return merged;
}

/** The activity pulse: a flat ring around the tile on the ground. */
export function ring(): BufferGeometry {
  return new RingGeometry(1.3, 1.52, 36, 1).rotateX(-Math.PI / 2).translate(0, 0.03, 0);
}

/** Ownership: one ground cell per tile (cells of one owner touch and read as one territory). */
export function cell(): BufferGeometry {
  return new PlaneGeometry(CELL, CELL).rotateX(-Math.PI / 2).translate(0, 0.012, 0);
}

/** The agent-readiness marker: a floating diamond. */
export function diamond(): BufferGeometry {
  return new OctahedronGeometry(0.3, 0).scale(1, 1.5, 1);
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
        '#include <common>\nattribute float aPulse;\nattribute float aPhase;\nuniform float uTime;\nvarying float vAlpha;',
      )
      .replace(
        '#include <begin_vertex>',
        '#include <begin_vertex>\nfloat k = fract(uTime * (0.35 + 0.5 * aPulse) + aPhase);\ntransformed.xz *= 0.85 + 0.55 * k;\nvAlpha = aPulse * (1.0 - k);',
      );
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying float vAlpha;')
      .replace('#include <alphamap_fragment>', '#include <alphamap_fragment>\ndiffuseColor.a *= vAlpha;');
  };
  return { material, time };
}
