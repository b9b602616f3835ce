// Sizes shared by the layout and the scene (world units: the server's layout puts sibling repositories 2.8 apart).

/** Cell pitch of the server's layout; a tile leaves a gap in its cell for the ownership ground. */
export const CELL = 2.8;
export const TILE = 2.0;
/** Slab height of a repository with no checkout here (missing, outside): a low ghost of a tile. */
export const GHOST = 0.22;
/** Slab height of a flat tile; a depression sinks into it. */
export const BASE = 0.7;
