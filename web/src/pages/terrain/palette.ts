// Colours of the 3D terrain for a light and a dark background. WebGL needs numbers, not CSS variables, so the
// page picks one of these two from the resolved background of the view (which follows the shell's theme).
import type { BranchKind, CiBeacon } from '../../api/terrain';

export interface Palette {
  dark: boolean;
  /** Scene background (the view's CSS background, resolved). */
  background: number;
  region: number;
  tile: { synced: number; unknown: number; missing: number; error: number };
  branch: Record<BranchKind, number>;
  bulge: { low: number; high: number };
  pool: { behind: number; heavy: number };
  crack: number;
  ci: Record<Exclude<CiBeacon, 'none'> | 'unchecked', number>;
  pulse: number;
  arc: { healthy: number; outdated: number; broken: number };
  agent: { ready: number; partial: number };
  owners: readonly number[];
  selection: number;
}

export const LIGHT: Palette = {
  dark: false,
  background: 0xf5f6f8,
  region: 0xe2e6ec,
  tile: { synced: 0x3f9e6a, unknown: 0x9bb3ab, missing: 0xb8bdc5, error: 0xc98680 },
  branch: {
    default: 0xa9c4e8,
    develop: 0x109e9a,
    feature: 0x8a55d6,
    hotfix: 0xe0572b,
    detached: 0xb05c7a,
    other: 0xc99a06,
  },
  bulge: { low: 0xf2b84b, high: 0xdf5a25 },
  pool: { behind: 0x2a5fa8, heavy: 0x14305e },
  crack: 0xd91f26,
  ci: { both: 0x1f9a52, declared: 0xd39500, mismatch: 0xd62c2c, detected: 0x2f74e0, unchecked: 0x7d8894 },
  pulse: 0xf08c00,
  arc: { healthy: 0x16877c, outdated: 0xc98a00, broken: 0xd62839 },
  agent: { ready: 0x0891b2, partial: 0x9a7fe6 },
  owners: [
    0x9ecae1, 0xfdd49e, 0xc7e9c0, 0xfcbba1, 0xdadaeb, 0xfde0ef, 0xa1d99b, 0xfdae6b, 0xbcbddc, 0x9ebcda,
    0xd9f0a3, 0xf4cae4,
  ],
  selection: 0xb8006e,
};

export const DARK: Palette = {
  dark: true,
  background: 0x1e2126,
  region: 0x2a2f37,
  tile: { synced: 0x3aa56d, unknown: 0x5e716b, missing: 0x4d535d, error: 0x8e4c47 },
  branch: {
    default: 0x5d7db0,
    develop: 0x2cc4c0,
    feature: 0xa77bf0,
    hotfix: 0xff7a4d,
    detached: 0xd67fa0,
    other: 0xe8b923,
  },
  bulge: { low: 0xf6c453, high: 0xf0642e },
  pool: { behind: 0x3b7bd6, heavy: 0x1f4b8f },
  crack: 0xff4646,
  ci: { both: 0x4ade80, declared: 0xfacc15, mismatch: 0xff5c5c, detected: 0x60a5fa, unchecked: 0x8b95a3 },
  pulse: 0xffc14d,
  arc: { healthy: 0x4fd1c5, outdated: 0xf2c14e, broken: 0xff5a6a },
  agent: { ready: 0x22d3ee, partial: 0xb9a3ff },
  owners: [
    0x2c5d7c, 0x7a5a22, 0x2f6b3a, 0x7c3b2c, 0x4d4a7a, 0x7a3a5f, 0x3f6e2e, 0x7a4a1a, 0x55508a, 0x2f5a7a,
    0x5f6e22, 0x6e3a6a,
  ],
  selection: 0xffb3e0,
};

/** `rgb(r, g, b)` / `#rrggbb` -> 0xrrggbb (null when unreadable). */
export function parseCssColor(css: string): number | null {
  const rgb = /rgba?\((\d+)[,\s]+(\d+)[,\s]+(\d+)/.exec(css);
  if (rgb) return (Number(rgb[1]) << 16) | (Number(rgb[2]) << 8) | Number(rgb[3]);
  const hex = /^#([0-9a-f]{6})$/i.exec(css.trim());
  return hex ? Number.parseInt(hex[1]!, 16) : null;
}

/** The palette for a resolved background colour: dark when its luminance is below one half. */
export function paletteFor(background: number | null): Palette {
  if (background === null) return LIGHT;
  const r = (background >> 16) & 255;
  const g = (background >> 8) & 255;
  const b = background & 255;
  const dark = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5;
  return { ...(dark ? DARK : LIGHT), background };
}

/** Linear mix of two 0xrrggbb colours (t = 0 -> a, 1 -> b). */
export function mix(a: number, b: number, t: number): number {
  const k = Math.min(1, Math.max(0, t));
  const ch = (s: number) => Math.round(((a >> s) & 255) * (1 - k) + ((b >> s) & 255) * k);
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
}

/** 0xrrggbb -> `#rrggbb` (legend swatches). */
export function cssHex(c: number): string {
  return `#${c.toString(16).padStart(6, '0')}`;
}
