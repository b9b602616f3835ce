export { atlasPlace } from './atlas-dir.js';
export { type GenerateResult, generateAtlas } from './generate.js';
export { type InitResult, initAtlas } from './init.js';
export { ATLAS_DIR, atlasJsonSchemas, atlasSchemas } from './layout.js';
export { type AtlasMention, atlasMention, MENTION_LIMIT } from './mention.js';
export {
  MAX_QUERY_LENGTH,
  parseQuery,
  QUERY_DEFAULT_LIMIT,
  QUERY_MAX_LIMIT,
  type QueryResult,
  queryAtlas,
  underPath,
} from './query.js';
export { ATLAS_API_VERSION, ENTITY_ID_RE, RELATIONS } from './schemas.js';
export { type AtlasStatus, atlasStatus } from './status.js';
export { type AtlasValidation, validateAtlas } from './validate.js';
