// Types of bench/lib/generate.mjs for the tests that generate a workspace with it.
export interface GeneratedWorkspace {
  manifestPath: string;
  bytes: number;
  projects: number;
  repos: number;
  components: number;
  relationships: number;
  sample: { project: string; repo: string };
}
export function generateWorkspace(
  dir: string,
  opts: { repos: number; components?: number; dirs?: boolean; seed?: number },
): GeneratedWorkspace;
