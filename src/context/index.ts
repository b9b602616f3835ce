export {
  buildRepoCard,
  buildRepoCards,
  CARD_COMMANDS,
  CARD_COMPONENTS,
  type CardComponent,
  type CardOptions,
  type CiSummary,
  compactCard,
  type DetectCommands,
  INSTRUCTIONS_EXCERPT,
  loadDetect,
  type RepoCard,
  STALE_DAYS,
} from './card.js';
export { CARD_EDGES, type CardEdge, type CardEdges, EdgeIndex } from './card-edges.js';
export {
  type CommitCache,
  type CommitMeta,
  headCommit,
  headCommits,
  openCommitCache,
} from './commit-cache.js';
export {
  COMPILE_DEFAULT_DEPTH,
  COMPILE_MAX_DEPTH,
  type CompiledSections,
  type CompileInput,
  compileSections,
} from './compile.js';
export { type Fitted, fitToBudget, type Ladder, type Measured, type Shrink, stampTokens } from './fit.js';
export {
  buildWorkspaceMap,
  MAP_PAGE_DEFAULT,
  MAP_PAGE_MAX,
  type MapOptions,
  type MapProject,
  type MapRepo,
  reposInScope,
  type WorkspaceMap,
} from './map.js';
export {
  type AssembledPack,
  assemblePack,
  type ContextPack,
  compactDigest,
  DIGEST_SUBJECTS,
  type ExtraSection,
  type PackDigest,
  type PackInput,
  packLadder,
  TIERS,
  type Tier,
} from './pack.js';
export { packMarkdown, packSummary } from './pack-markdown.js';
export { DIGEST_REPO_LIMIT, type PackDeps, type PackRequest, producePack } from './produce.js';
export { AGENT_FILES, type RepoScan, type StackHint, scanRepo } from './repo-scan.js';
export {
  buildSnapshot,
  SNAPSHOT_DEFAULT_TOKENS,
  SNAPSHOT_MAX_FILE_BYTES,
  SNAPSHOT_MAX_TOKENS,
  type Snapshot,
  type SnapshotFile,
  type SnapshotInput,
} from './repomix.js';
export { pickFile, REPOMIX_PROFILES, type RepomixProfile } from './repomix-profiles.js';
export {
  type Instruction,
  layeredInstructions,
  type PromptInput,
  pickObjective,
  type SwitchEnv,
  shellExports,
  switchEnv,
  switchPrompt,
  switchTarget,
} from './switch.js';
export { loadTokenCounter, serialize, TOKENIZER, type TokenCounter } from './tokens.js';
