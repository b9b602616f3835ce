// What a graph canvas draws, read from its cytoscape instance: how much of the canvas the laid-out nodes (with
// their labels) span in each direction, and whether every node lies inside it.
import type { Locator } from 'playwright-core';

export interface GraphSpan {
  /** Share of the canvas's width and height the nodes' bounding box spans (0..1). */
  x: number;
  y: number;
  nodes: number;
  /** Every node's centre lies inside the canvas. */
  inside: boolean;
}

export function graphSpan(canvas: Locator): Promise<GraphSpan> {
  return canvas.evaluate((el) => {
    const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
    const w = cy.width();
    const h = cy.height();
    const bb = cy.nodes().renderedBoundingBox();
    let inside = true;
    cy.nodes().forEach((n) => {
      const p = n.renderedPosition();
      if (p.x < 0 || p.y < 0 || p.x > w || p.y > h) inside = false;
    });
    return { x: bb.w / w, y: bb.h / h, nodes: cy.nodes().length, inside };
  });
}
