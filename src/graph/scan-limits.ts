/** Bounds of one repository's scan; each is named in the skip it causes. */
export const SCAN_LIMITS = {
  /** Bytes of one package file (a larger one is skipped, rule max_size). */
  maxFileBytes: 1024 * 1024,
  /** Folders read in one repository: root, components, workspace members, chart folders. */
  maxDirs: 512,
  /** Bytes of package files read in one repository (the rest are skipped, rule max_repo_bytes). */
  maxRepoBytes: 32 * 1024 * 1024,
  /** Folders one member pattern looks at (`dir/*`, `dir/**`). */
  maxExpand: 256,
  /** Levels below its fixed head a `**` member pattern descends. */
  maxGlobDepth: 4,
  /** Characters of one member pattern (a longer one is not read, rule max_expand). */
  maxPatternLength: 256,
  /** Names one file may declare (provides plus requires); the rest are dropped, rule max_declarations. */
  maxDeclarationsPerFile: 5000,
  /** Skips listed in a response (all are counted). */
  maxSkipsListed: 200,
} as const;
