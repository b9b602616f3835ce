import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from '../../workspace/index.js';

/** The package's name in package.json (the bundled templates sit at its root). */
const PACKAGE = 'hub-workspace';

/**
 * `templates/agents` of the installed package: found from this module's own location by walking up to the
 * package root, so it is the same from the built CLI (dist/chunks) and from the sources under test.
 */
export function bundledTemplatesDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  const root = findPackageRoot(from, PACKAGE);
  if (root === undefined) throw new Error(`hub: cannot find the ${PACKAGE} package above ${from}`);
  return join(root, 'templates', 'agents');
}
