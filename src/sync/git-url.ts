import { ValidationError } from '../infra/index.js';
import { redactUrlSecrets } from '../model/index.js';

/** The transports hub clones and fetches over; every other one (ext::, fd::, http, remote helpers) is refused. */
export const ALLOWED_TRANSPORTS = ['https', 'ssh', 'git', 'file'] as const;
export type Transport = (typeof ALLOWED_TRANSPORTS)[number];

/** The rule a clone URL breaks when its transport is not one of ALLOWED_TRANSPORTS. */
export const GIT_URL_RULE = 'git_url_transport';

/**
 * Environment of every clone and fetch hub runs: git itself refuses any transport but the four allowed ones.
 * GIT_ALLOW_PROTOCOL overrides every `protocol.*.allow` setting, also a repository's own config, which a planted
 * `.git` could have widened (`protocol.ext.allow=always` beats a command-line `protocol.allow=never`).
 */
export const TRANSPORT_ENV: Readonly<Record<string, string>> = {
  GIT_ALLOW_PROTOCOL: ALLOWED_TRANSPORTS.join(':'),
};

/** `-c` settings for every clone, fetch and merge hub runs: no hook runs (a sync is not the user's checkout). */
export const TRANSPORT_CONFIG: readonly string[] = ['-c', 'core.hooksPath=/dev/null'];

const SCP_LIKE = /^(?:[A-Za-z0-9._~-]+@)?([A-Za-z0-9.-]+):(?!\/\/)(.+)$/;

/** The transport of a clone URL, or undefined when hub does not clone over it. */
export function transportOf(url: string): Transport | undefined {
  if (/[\s\0]/.test(url) || url.startsWith('-')) return undefined;
  // `<helper>::<address>` runs a remote helper (ext:: runs any command); never.
  if (url.includes('::')) return undefined;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/.exec(url);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    const rest = scheme[2]!;
    // A host that starts with '-' would reach ssh as an option.
    const host = rest.replace(/^[^@/]*@/, '');
    if (name !== 'file' && (host === '' || host.startsWith('-') || host.startsWith('/'))) return undefined;
    if (name === 'ssh' || name === 'git+ssh' || name === 'ssh+git') return 'ssh';
    if (name === 'https' || name === 'git' || name === 'file') return name;
    return undefined;
  }
  const scp = SCP_LIKE.exec(url);
  if (scp && !scp[1]!.startsWith('-') && scp[1]!.length > 1) return 'ssh';
  return undefined;
}

/** Returns the transport of `url`, or throws a ValidationError naming the field, the value and the rule. */
export function checkGitUrl(url: string, field = 'url'): Transport {
  const t = transportOf(url);
  if (t) return t;
  // The URL is shown without its password or token: manifests and providers can carry credentialed URLs.
  const shown = redactUrlSecrets(url);
  throw new ValidationError(
    `${field} '${shown}': hub clones and fetches only over https, ssh (ssh:// or user@host:path), git:// and file:// ` +
      `(rule ${GIT_URL_RULE}); remote helpers such as ext:: and plain http are refused`,
    { field, value: shown, rule: GIT_URL_RULE, allowed: [...ALLOWED_TRANSPORTS] },
  );
}
