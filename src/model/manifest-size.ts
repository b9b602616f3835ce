import { ValidationError } from '../infra/index.js';
import { YAML_LIMITS } from './yaml-source.js';

/** The manifest size limit when nothing raises it: 8 MiB (about 7,000 repositories of 10 components). */
export const DEFAULT_MANIFEST_MAX_BYTES: number = YAML_LIMITS.maxBytes;
/** The environment variable that sets `workspace.manifest_max_bytes`. */
export const MANIFEST_MAX_BYTES_ENV = 'HUB_MANIFEST_MAX_BYTES';
/** The application config key of the manifest size limit. */
export const MANIFEST_MAX_BYTES_KEY = 'workspace.manifest_max_bytes';

/**
 * The size limit a manifest of `size` bytes is held to. The configured limit is asked for only when the file is
 * larger than the default, so a read of a usual manifest never loads the application config for it.
 */
export function manifestByteLimit(size: number, configured?: () => number): number {
  if (size <= DEFAULT_MANIFEST_MAX_BYTES || !configured) return DEFAULT_MANIFEST_MAX_BYTES;
  return Math.max(DEFAULT_MANIFEST_MAX_BYTES, configured());
}

const MIB = 1_048_576;
const mib = (n: number) => `${(n / MIB).toFixed(1).replace(/\.0$/, '')} MiB`;

/** A limit that fits `size` with room to grow: the next multiple of 8 MiB at least a quarter above it. */
export function suggestedManifestLimit(size: number): number {
  const step = 8 * MIB;
  return Math.ceil((size * 1.25) / step) * step;
}

/** The refusal of a manifest over its size limit: the file, its size, the limit, and exactly how to raise it. */
export function manifestTooLarge(path: string, size: number, limit: number): ValidationError {
  const next = suggestedManifestLimit(size);
  return new ValidationError(
    `manifest ${path} is ${mib(size)} (${size} bytes); the limit is ${mib(limit)} (${limit} bytes). ` +
      `To raise it, set ${MANIFEST_MAX_BYTES_ENV}=${next} in the environment, or ` +
      `\`workspace: {manifest_max_bytes: ${next}}\` in the user config (config.yml in hub's config directory, ` +
      'or a file passed with --appconfig; `hub appconfig info` shows which is in effect); ' +
      'a hub.config.yaml inside the workspace may not raise it',
    {
      file: path,
      rule: 'max_size',
      size,
      limit,
      field: MANIFEST_MAX_BYTES_KEY,
      hint: `${MANIFEST_MAX_BYTES_ENV}=${next}`,
    },
  );
}
