import { artifactPath, type InstallRoots, type InstallScope, type VendorSpec } from '../vendors.js';
import { markerState } from './managed-marker.js';
import { inspectTarget, MAX_MANAGED_BYTES } from './target-file.js';

/** Whether a vendor's artifact of a template is installed, where, and whether it is hub's unchanged file. */
export interface InstalledAgent {
  exists: boolean;
  path: string;
  /**
   * `intact`: hub wrote it and nobody changed it; `edited`: hub wrote it and it was changed; `none`: no hub
   * marker; `unreadable`: something is there that hub does not read (a link, a FIFO, an oversized file);
   * null when absent.
   */
  state: 'intact' | 'edited' | 'none' | 'unreadable' | null;
}

/** Looks (never writes) at the agent file or SKILL.md that `agent create <id>` installs for a vendor. */
export function installedAgent(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  id: string,
): InstalledAgent {
  const path = artifactPath(vendor, scope, roots, id);
  const root = scope === 'user' ? roots.home : roots.projectRoot!;
  const st = inspectTarget(path, { root, maxBytes: MAX_MANAGED_BYTES });
  if (st.kind === 'absent') return { exists: false, path, state: null };
  if (st.kind === 'unsafe' || st.text === null) return { exists: true, path, state: 'unreadable' };
  return { exists: true, path, state: markerState(st.text) };
}
