import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RefusedError, ValidationError, writeFileUnder } from '../infra/index.js';
import { atlasPlace } from './atlas-dir.js';
import { ATLAS_DIR, FIXED_FILES, FOLDER_FILES } from './layout.js';
import { ATLAS_API_VERSION, ATLAS_FORMAT_VERSION } from './schemas.js';

export interface InitResult {
  path: string;
  repository: string;
  created: string[];
  kept: string[];
}

const HEADER: Record<string, string> = {
  'ontology/domain.yaml': '# The domain this repository serves: kind Domain (id domain:<name>).',
  'ontology/concepts.yaml': '# Concepts of the domain: kind Concept (id concept:<name>).',
  'ontology/capabilities.yaml': '# What the repository can do: kind Capability (id capability:<name>).',
  'mappings/semantic-to-evidence.yaml':
    '# Relations from curated entities to evidence: {from, relation: maps_to|implements|verified_by, to}.',
  'mappings/external-ids.yaml': '# Ids of entities in other systems: {id, system, value, url}.',
  'overrides/classifications.yaml':
    '# Classification of an entity, over what its file says: {id, classification}.',
  'overrides/links.yaml': '# Relations between any entities, generated ones included: {from, relation, to}.',
  'overrides/suppressions.yaml': '# Generated entities to leave out of the index: {id, reason}.',
  'policy/access.yaml': '# The most sensitive classification MCP and HTTP callers are shown.',
  'policy/generation.yaml': '# How `hub atlas generate` reads the sources: maxFileBytes, exclude (globs).',
};

const BODY: Record<string, string> = {
  'mappings/semantic-to-evidence.yaml': 'mappings: []',
  'mappings/external-ids.yaml': 'externalIds: []',
  'overrides/classifications.yaml': 'classifications: []',
  'overrides/links.yaml': 'links: []',
  'overrides/suppressions.yaml': 'suppressions: []',
  'policy/access.yaml': 'maxServedClassification: internal',
  'policy/generation.yaml': 'maxFileBytes: 1048576\nexclude: []',
};

/** atlas.yaml of a new atlas: generated sources `missing` until the first `generate`. */
function atlasYaml(repository: string): string {
  return [
    `apiVersion: ${ATLAS_API_VERSION}`,
    `repository: ${JSON.stringify(repository)}`,
    `formatVersion: ${ATLAS_FORMAT_VERSION}`,
    'commitGenerated: true',
    'sources:',
    '  generated: missing',
    '',
  ].join('\n');
}

/**
 * Creates the `.atlas/` layout in the repository folder: atlas.yaml, the curated files (empty lists), the intent
 * and federation folders, and a .gitignore for the index cache. A file that exists is kept as it is, never
 * rewritten: running init again only adds what is missing.
 */
export function initAtlas(cwd: string, path: string | undefined, repository?: string): InitResult {
  const place = atlasPlace(cwd, path);
  const name = repository ?? basename(place.root);
  if (!/^[^\0\n\r]{1,256}$/.test(name))
    throw new ValidationError('repository: 1 to 256 characters on one line', {
      field: 'repository',
      value: name,
      rule: 'format',
    });
  const files: Record<string, string> = {
    'atlas.yaml': atlasYaml(name),
    '.gitignore': '# A cache hub rebuilds.\nindex/\n',
  };
  for (const rel of Object.keys(FIXED_FILES)) {
    if (rel === 'atlas.yaml' || rel.startsWith('generated/')) continue;
    files[rel] = `${HEADER[rel] ?? ''}\napiVersion: ${ATLAS_API_VERSION}\n${BODY[rel] ?? 'entities: []'}\n`;
  }
  const created: string[] = [];
  const kept: string[] = [];
  if (!place.exists) mkdirSync(place.dir);
  for (const [rel, text] of Object.entries(files)) {
    const shown = `${ATLAS_DIR}/${rel}`;
    if (lexists(join(place.dir, rel))) {
      kept.push(shown);
      continue;
    }
    writeFileUnder(place.dir, rel, text);
    created.push(shown);
  }
  for (const { dir } of FOLDER_FILES) {
    if (dir.startsWith('generated/')) continue;
    const keep = `${dir}/.gitkeep`;
    if (lexists(join(place.dir, dir))) {
      if (!lstatSync(join(place.dir, dir)).isDirectory())
        throw new RefusedError(`${ATLAS_DIR}/${dir} is not a folder; atlas will not write beside it`, {
          field: 'path',
          value: `${ATLAS_DIR}/${dir}`,
          rule: 'folder',
        });
      kept.push(`${ATLAS_DIR}/${dir}/`);
      continue;
    }
    writeFileUnder(place.dir, keep, '');
    created.push(`${ATLAS_DIR}/${dir}/`);
  }
  return { path: place.root, repository: name, created, kept };
}

function lexists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return existsSync(p);
  }
}
