export { type AnswerFacts, type CheckedAnswers, checkAnswers, parseAnswers } from './answers.js';
export { bundledTemplatesDir } from './bundled-dir.js';
export { type CatalogEntry, catalogEntry, type TemplateCatalog, templateCatalog } from './catalog.js';
export { type CheckResult, checkTemplateFile, renderFile } from './engine.js';
export {
  EXPORT_FRAGMENT,
  EXPORT_MANIFEST,
  type ExportFile,
  type ExportResult,
  exportTemplate,
  type WriteAction,
} from './export.js';
export {
  allowedHubTools,
  checkFrontMatter,
  DYNAMIC_TOOLS,
  type FrontMatter,
  frontMatterFor,
  frontMatterProblems,
  HUB_MCP_SERVER,
  SKILL_DESCRIPTION_MAX,
  vendorToolName,
  withFrontMatter,
} from './front-matter.js';
export {
  LAYER_ORIGINS,
  type LayerOrigin,
  OVERLAY_DIRS,
  SHARED_DIR,
  type TemplateLayer,
  type TemplateRoots,
} from './layers.js';
export { MergeIssue, mergeLayer } from './merge.js';
export {
  initOverlay,
  type OverlayInitResult,
  type OverlayLocation,
  type OverlayMode,
  type OverlayScope,
  overlayLocation,
} from './overlay.js';
export { artifactName, type RenderedTemplate, renderTemplate, templateView } from './render.js';
export {
  knownTemplateId,
  listTemplates,
  type ResolvedTemplate,
  resolveTemplate,
  type TemplateFile,
  type TemplateIssue,
  type TemplateSource,
  templateIds,
  templateText,
} from './resolve.js';
export {
  ARCHETYPES,
  BODY_FILE,
  BUILTIN_VARIABLES,
  checkTemplateId,
  FRAGMENT_FILE,
  MANIFEST_FILE,
  TEMPLATE_ID_RE,
  TEMPLATE_LIMITS,
  TEMPLATE_SCOPES,
  type TemplateInput,
  type TemplateManifest,
  TemplateManifestSchema,
  type TemplateScope,
  templateJsonSchema,
} from './schema.js';
export { type TemplateValidation, type ValidationReport, validateTemplates } from './validate.js';
