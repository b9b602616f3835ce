export {
  type EffectiveProfile,
  effectiveProfile,
  mergeProfiles,
  type ProfileLayer,
  type ProfileScope,
  type ProfileTarget,
  profileLayers,
} from './effective-profile.js';
export { composeInstructions, type InstructionLayer, instructionLayers } from './instructions.js';
