import { type AclDeps, conceptConflicts, readAllOwnerships, readConcepts } from '../acl/index.js';
import type { AosSubsystem, Finding } from './subsystem.js';

/** Concepts and their ownerships; the doctor hints at concepts several live claimants overlap (never an error). */
export function semanticSubsystem(deps: AclDeps): AosSubsystem {
  let repositories: string[] = [];
  return {
    name: 'semantic',
    async summary() {
      const ownerships = await readAllOwnerships(deps);
      repositories = [...new Set(ownerships.map((o) => o.repository))].sort();
      return { concepts: (await readConcepts(deps)).size, ownerships: ownerships.length };
    },
    async findings() {
      const out: Finding[] = [];
      for (const repository of repositories)
        for (const c of await conceptConflicts(deps, repository))
          out.push({
            severity: 'info',
            code: 'concept_conflict',
            subsystem: 'semantic',
            subject: c.concept_id,
            message: `agents ${c.agent_ids.join(', ')} claim paths of concept ${c.concept_name} in ${repository}`,
            command: `hub semantic conflicts --repository ${repository}`,
          });
      return out;
    },
  };
}
