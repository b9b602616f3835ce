import type { InferredDependencySource } from '../terrain/index.js';

/**
 * HOOK (graph inference): the source of inferred repository edges terrain shows with include_inferred. The
 * workspace graph's inference from package manifests (npm, Go, Python, Cargo, Maven/Gradle, Helm, submodules)
 * plugs in here, mapping each inferred edge to `{from_id: 'repo:<p>/<r>', to_id, type, label, evidence}`. Until
 * it does, terrain answers `inferred: {requested: true, available: false, edge_count: 0}` and only the manifest's
 * declared edges.
 */
export function inferredDependencySource(): InferredDependencySource | undefined {
  return undefined;
}
