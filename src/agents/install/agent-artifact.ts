import {
  artifactPath,
  type InstallRoots,
  type InstallScope,
  scopeBase,
  type VendorSpec,
} from '../vendors.js';
import { type FileWritePlan, planFileWrite } from './file-writer.js';

/**
 * Plans the artifact `agent create` installs: the agent file (`<vendor_dir>/agents/<id>.md`, `.agent.md` for
 * GitHub Copilot) or the skill (`<vendor_dir>/skills/<id>/SKILL.md`), with the content the templates room rendered
 * for the vendor (its front-matter included). Nothing is written here.
 */
export function planAgentArtifact(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  id: string,
  content: string,
  opts: { force?: boolean } = {},
): FileWritePlan {
  return planFileWrite(artifactPath(vendor, scope, roots, id), content, {
    root: scopeBase(scope, roots),
    force: opts.force,
  });
}
