export {
  BODY_LIMIT,
  createHubServer,
  DOCUMENT_BODY_LIMIT,
  type HubServer,
  type HubServerOptions,
  OPENAPI_PATH,
  ROUTE_FAMILIES,
  type ServeMode,
} from './create-server.js';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type Listening,
  listenWithProbe,
  parsePort,
  type StartOptions,
  startHubServer,
  urlFor,
} from './listen.js';
export { createLoginCodes, LOGIN_CODE_TTL_MS, LOGIN_PATH, type LoginCodes } from './login-codes.js';
export { buildOpenApi } from './openapi.js';
export { hostAllowed, isLoopbackHost, originAllowed, tokenMatches } from './security.js';
export { locateUiDir, PLACEHOLDER_HTML } from './static-ui.js';
