// The terrain's camera: OrbitControls for the pointer (drag orbits, right-drag pans, wheel zooms), the keyboard's
// pan / zoom / orbit, and framing every tile from a fixed bearing. `framed` says the camera is where fit() put it,
// so a resize frames again; any user move clears it.
import { PerspectiveCamera, Vector3 } from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { Plate } from './layout';

/** The bearing the camera looks from: south-east and above. */
export const BEARING = new Vector3(0.42, 0.68, 0.6).normalize();

export class CameraRig {
  readonly camera = new PerspectiveCamera(40, 1, 0.5, 5000);
  readonly controls: OrbitControls;
  framed = false;

  constructor(element: HTMLElement, onChange: () => void) {
    this.controls = new OrbitControls(this.camera, element);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.47;
    this.controls.addEventListener('change', onChange);
    this.controls.addEventListener('start', () => {
      this.framed = false;
    });
  }

  setAspect(aspect: number): void {
    this.camera.aspect = aspect;
    this.camera.updateProjectionMatrix();
  }

  /** Screen-relative pan by steps of 8% of the viewing distance. */
  pan(dx: number, dy: number): void {
    const fwd = new Vector3();
    this.camera.getWorldDirection(fwd);
    fwd.y = 0;
    fwd.normalize();
    const right = new Vector3(-fwd.z, 0, fwd.x);
    const step = this.camera.position.distanceTo(this.controls.target) * 0.08;
    this.shift(right.multiplyScalar(dx * step).add(fwd.multiplyScalar(dy * step)));
  }

  /** Moves the orbit centre (and the camera with it) over a ground point. */
  panTo(x: number, z: number): void {
    this.shift(new Vector3(x, this.controls.target.y, z).sub(this.controls.target));
  }

  zoom(factor: number): void {
    const offset = this.camera.position.clone().sub(this.controls.target).multiplyScalar(factor);
    const len = Math.min(this.controls.maxDistance, Math.max(4, offset.length()));
    this.camera.position.copy(this.controls.target).add(offset.setLength(len));
    this.moved();
  }

  orbit(radians: number): void {
    const offset = this.camera.position.clone().sub(this.controls.target);
    offset.applyAxisAngle(new Vector3(0, 1, 0), radians);
    this.camera.position.copy(this.controls.target).add(offset);
    this.moved();
  }

  /**
   * The nearest camera on BEARING that sees every corner of every plate (up to 2.5 above them), centred on what
   * it sees: plates hug the tiles, where one box around two far-apart projects would be mostly empty.
   */
  fit(plates: readonly Plate[]): void {
    const corners: Vector3[] = [];
    for (const b of plates.slice(0, 500))
      for (const x of [b.minX, b.maxX])
        for (const y of [0, 2.5]) for (const z of [b.minZ, b.maxZ]) corners.push(new Vector3(x, y, z));
    if (corners.length === 0) corners.push(new Vector3(-5, 0, -5), new Vector3(5, 0, 5));
    const target = corners
      .reduce((sum, p) => sum.add(p), new Vector3())
      .divideScalar(corners.length)
      .setY(0);
    const cam = this.camera;
    const n = new Vector3();
    const fits = (d: number) => {
      cam.position.copy(target).addScaledVector(BEARING, d);
      cam.lookAt(target);
      cam.updateMatrixWorld();
      return corners.every((p) => {
        n.copy(p).project(cam);
        return Math.abs(n.x) <= 0.9 && Math.abs(n.y) <= 0.86 && n.z < 1;
      });
    };
    const search = () => {
      let lo = 1;
      let hi = 20;
      while (!fits(hi) && hi < 1e5) hi *= 2;
      for (let k = 0; k < 24; k++) {
        const mid = (lo + hi) / 2;
        if (fits(mid)) hi = mid;
        else lo = mid;
      }
      fits(hi);
      return hi;
    };
    cam.far = 1e6;
    cam.updateProjectionMatrix();
    let dist = search();
    // Centre the picture (a box's centre is not the centre of its picture), then fit again.
    let [x0, x1, y0, y1] = [1, -1, 1, -1];
    for (const p of corners) {
      n.copy(p).project(cam);
      [x0, x1, y0, y1] = [Math.min(x0, n.x), Math.max(x1, n.x), Math.min(y0, n.y), Math.max(y1, n.y)];
    }
    const halfH = Math.tan((cam.fov * Math.PI) / 360) * dist;
    target.addScaledVector(
      new Vector3().setFromMatrixColumn(cam.matrixWorld, 0),
      ((x0 + x1) / 2) * halfH * cam.aspect,
    );
    target.addScaledVector(new Vector3().setFromMatrixColumn(cam.matrixWorld, 1), ((y0 + y1) / 2) * halfH);
    dist = search();
    this.controls.target.copy(target);
    this.controls.maxDistance = dist * 3;
    cam.far = dist * 6;
    cam.updateProjectionMatrix();
    this.controls.update();
    this.framed = true;
  }

  /** A ground point's client coordinates inside `rect`; null behind the camera. */
  toClient(p: Vector3, rect: DOMRect): { x: number; y: number } | null {
    const n = p.clone().project(this.camera);
    if (n.z > 1) return null;
    return { x: rect.left + ((n.x + 1) / 2) * rect.width, y: rect.top + ((1 - n.y) / 2) * rect.height };
  }

  private shift(delta: Vector3): void {
    this.controls.target.add(delta);
    this.camera.position.add(delta);
    this.moved();
  }

  private moved(): void {
    this.framed = false;
    this.controls.update();
  }
}
