import { join } from 'node:path';
import { tryReadFileBounded } from '../infra/index.js';
import { yaml, yamlStructureViolation } from '../model/index.js';
import { type CiFileRef, ciFiles, type Listing } from './files.js';
import { azureShape, circleciShape, githubShape, gitlabShape } from './parse-pipelines.js';
import {
  appveyorShape,
  bitbucketShape,
  buildkiteShape,
  droneShape,
  jenkinsShape,
  travisShape,
} from './parse-steps.js';
import { CI_LABELS, type CiProvider } from './providers.js';
import { type CiShape, isObj } from './shape.js';

/** Largest CI file read; bigger ones are listed with an error instead of being parsed. */
export const CI_MAX_FILE_BYTES = 512 * 1024;
/** YAML aliases one CI file may expand (a billion-laughs file stops here). */
const MAX_ALIASES = 200;

/** One CI file and what it names. */
export interface CiFileDetail extends CiShape {
  provider: CiProvider;
  path: string;
  /** Jenkinsfile only: `declarative` (`pipeline {}`) or `scripted`. */
  style?: 'declarative' | 'scripted';
  /** Some list was cut at CI_MAX_NAMES. */
  truncated?: boolean;
  /** Why the file could not be read or parsed (it still counts as that provider's file). */
  error?: string;
}

const EMPTY: CiShape = { name: null, workflows: [], jobs: [], stages: [], triggers: [], includes: [] };

/** Parses every YAML document of a CI file; throws the first syntax error. */
function yamlDocs(text: string): unknown[] {
  // A CI file comes with the clone: nesting the composer would recurse through is refused before it runs.
  const bad = yamlStructureViolation(text);
  if (bad) throw new Error(bad.reason);
  const docs = yaml().parseAllDocuments(text, { uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) if (d.errors.length > 0) throw new Error(d.errors[0]!.message.split('\n')[0]);
  return list.map((d) => d.toJS({ maxAliasCount: MAX_ALIASES }) as unknown);
}

function shapeFor(
  ref: CiFileRef,
  text: string,
): CiShape & { truncated?: boolean; style?: CiFileDetail['style'] } {
  if (ref.provider === 'jenkins') return jenkinsShape(text);
  const docs = yamlDocs(text);
  if (ref.provider === 'drone') return droneShape(docs);
  const doc = docs[0];
  if (ref.provider === 'buildkite') return buildkiteShape(doc);
  if (!isObj(doc)) return EMPTY;
  switch (ref.provider) {
    case 'github_actions':
      return githubShape(doc, ref.path);
    case 'gitlab_ci':
      return gitlabShape(doc);
    case 'circleci':
      return circleciShape(doc);
    case 'azure_pipelines':
      return azureShape(doc);
    case 'travis':
      return travisShape(doc);
    case 'bitbucket_pipelines':
      return bitbucketShape(doc);
    case 'appveyor':
      return appveyorShape(doc);
  }
}

/**
 * Reads one CI file (a regular file inside the checkout, at most CI_MAX_FILE_BYTES) and names what it defines.
 * Never throws: an unreadable or invalid file comes back with `error`.
 */
export function describeCiFile(root: string, ref: CiFileRef): CiFileDetail {
  const read = tryReadFileBounded(join(root, ref.path), {
    root,
    maxBytes: CI_MAX_FILE_BYTES,
    rootName: 'the repository',
  });
  if (!read.ok) return { ...ref, ...EMPTY, error: `not read: ${read.reason} (rule ${read.rule})` };
  try {
    const { truncated, ...shape } = shapeFor(ref, read.bytes.toString('utf8'));
    return { ...ref, ...shape, ...(truncated ? { truncated } : {}) };
  } catch (err) {
    return { ...ref, ...EMPTY, error: `not parsed: ${(err as Error).message}` };
  }
}

/** The CI systems of one checkout, each with its files and what they name. */
export interface CiDetection {
  providers: Array<{
    provider: CiProvider;
    label: string;
    files: CiFileDetail[];
  }>;
}

/** Finds and describes every CI file of a checkout (see ciFiles for where it looks). */
export function detectCi(root: string, rootListing?: Listing): CiDetection {
  const byProvider = new Map<CiProvider, CiFileDetail[]>();
  for (const ref of ciFiles(root, rootListing)) {
    const d = describeCiFile(root, ref);
    (byProvider.get(ref.provider) ?? byProvider.set(ref.provider, []).get(ref.provider)!).push(d);
  }
  return {
    providers: [...byProvider].map(([provider, files]) => ({ provider, label: CI_LABELS[provider], files })),
  };
}
