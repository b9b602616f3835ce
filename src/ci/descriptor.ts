import { didYouMean, suggestionText } from '../catalog/index.js';
import { normalizeRelPath, ValidationError } from '../infra/index.js';
import { type Repo, redactUrlSecrets } from '../model/index.js';
import type { CiDetection } from './describe.js';
import { CI_PROVIDERS, type CiProvider, isCiProvider } from './providers.js';

/** A repository's CI target as the manifest's `ci` records it (a bare string is a provider id). */
export interface CiDescriptor {
  provider: string | null;
  /** GitHub Actions: the workflow file. */
  workflow?: string;
  /** Other systems: the pipeline file (or a pipeline name the system knows it by). */
  pipeline?: string;
  /** Where people see its runs. */
  url?: string;
}

/** The declared `ci` of a repository entry as a descriptor; null when none is declared. */
export function declaredCi(raw: Repo['ci'] | undefined): CiDescriptor | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string') return { provider: raw };
  return { provider: raw.provider ?? null, ...withoutUndefined(raw) };
}

function withoutUndefined(raw: Exclude<Repo['ci'], string | undefined>) {
  const out: Omit<CiDescriptor, 'provider'> = {};
  if (raw.workflow !== undefined) out.workflow = raw.workflow;
  if (raw.pipeline !== undefined) out.pipeline = raw.pipeline;
  if (raw.url !== undefined) out.url = raw.url;
  return out;
}

/** The configuration file a descriptor names, repository-relative (`./` dropped), if any. */
export function configPathOf(d: CiDescriptor | null): string | null {
  const p = d?.workflow ?? d?.pipeline;
  return p ? normalizeRelPath(p).path : null;
}

/** GitHub workflow files people name their main workflow by; the first of these found is preferred. */
const MAIN_WORKFLOW = /^(ci|build|test|tests|main|pipeline)\.ya?ml$/i;

/**
 * What `ci set --detected` writes: the first detected system (CI_PROVIDERS order), its main file as `workflow`
 * (GitHub Actions) or `pipeline` (the others). Null when nothing was detected.
 */
export function suggestedCi(detection: CiDetection): CiDescriptor | null {
  const first = detection.providers[0];
  if (!first) return null;
  const files = first.files.map((f) => f.path);
  if (first.provider === 'github_actions') {
    const main = files.find((f) => MAIN_WORKFLOW.test(f.slice(f.lastIndexOf('/') + 1))) ?? files[0];
    return { provider: first.provider, ...(main ? { workflow: main } : {}) };
  }
  return { provider: first.provider, ...(files[0] ? { pipeline: files[0] } : {}) };
}

/** Checks a descriptor `ci set` is asked to write: a known provider, paths inside the repository, an http(s) url. */
export function checkDescriptor(d: {
  provider: string;
  workflow?: string;
  pipeline?: string;
  url?: string;
}): CiDescriptor & { provider: CiProvider } {
  if (!isCiProvider(d.provider)) {
    throw new ValidationError(
      `provider '${d.provider}' is not a CI system hub knows${suggestionText(didYouMean(d.provider, CI_PROVIDERS))} (rule known_provider; known: ${CI_PROVIDERS.join(', ')})`,
      { field: 'provider', value: d.provider, rule: 'known_provider', known: [...CI_PROVIDERS] },
    );
  }
  const out: CiDescriptor & { provider: CiProvider } = { provider: d.provider };
  for (const field of ['workflow', 'pipeline'] as const) {
    const v = d[field];
    if (v === undefined) continue;
    const n = normalizeRelPath(v);
    if (n.escapes || n.path === '.')
      throw new ValidationError(
        `${field} '${v}' must be a file path inside the repository (rule inside_repository)`,
        { field, value: v, rule: 'inside_repository' },
      );
    out[field] = n.path;
  }
  if (d.url !== undefined) {
    let ok = false;
    try {
      const u = new URL(d.url);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      ok = false;
    }
    if (!ok) {
      const shown = redactUrlSecrets(d.url);
      throw new ValidationError(
        `url '${shown}' must be an http or https URL without credentials (rule http_url)`,
        {
          field: 'url',
          value: shown,
          rule: 'http_url',
        },
      );
    }
    out.url = d.url;
  }
  return out;
}
