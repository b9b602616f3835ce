export { type DetectInput, detectCommands, type ManifestCommands } from './detect.js';
export { COMMAND_LIMITS } from './text.js';
export {
  COMMAND_KINDS,
  type CommandKind,
  type DeclaredCommand,
  kindOf,
  kindOfLine,
} from './types.js';
