// Project names over the map as HTML (a few dozen at most: a label per tile would be thousands of DOM nodes),
// placed after each frame; a label that would overlap one already placed is hidden.
import { type Camera, Vector3 } from 'three';
import type { Label } from './layout';

const MAX_LABELS = 200;

export class ProjectLabels {
  private els: HTMLElement[] = [];
  private labels: readonly Label[] = [];
  private readonly p = new Vector3();

  constructor(private readonly layer: HTMLElement) {}

  set(labels: readonly Label[]): void {
    this.clear();
    this.labels = labels.slice(0, MAX_LABELS);
    this.els = this.labels.map((l) => {
      const el = document.createElement('span');
      el.className = 'terrain-label';
      el.textContent = l.text;
      this.layer.append(el);
      return el;
    });
  }

  place(camera: Camera, width: number, height: number): void {
    const placed: Array<[number, number, number, number]> = [];
    this.els.forEach((el, i) => {
      const l = this.labels[i]!;
      const n = this.p.set(l.x, 0.2, l.z).project(camera);
      const sx = ((n.x + 1) / 2) * width;
      const sy = ((1 - n.y) / 2) * height;
      const half = l.text.length * 3.6 + 6;
      const box: [number, number, number, number] = [sx - half, sy - 20, sx + half, sy];
      const clash = placed.some((b) => box[0] < b[2] && box[2] > b[0] && box[1] < b[3] && box[3] > b[1]);
      const hidden = clash || n.z > 1 || Math.abs(n.x) > 1.1 || Math.abs(n.y) > 1.1;
      el.style.display = hidden ? 'none' : '';
      if (hidden) return;
      placed.push(box);
      el.style.transform = `translate(${sx}px, ${sy}px)`;
    });
  }

  clear(): void {
    for (const el of this.els) el.remove();
    this.els = [];
  }
}
