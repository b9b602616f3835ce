/** What one CI file names: the pieces a person looks for (pipeline name, workflows, jobs, stages, triggers). */
export interface CiShape {
  /** The pipeline's own name where the file gives one. */
  name: string | null;
  /** Named pipelines the file defines (CircleCI workflows, Bitbucket pipelines, Drone pipelines). */
  workflows: string[];
  jobs: string[];
  stages: string[];
  /** Events that start it (GitHub `on`, Azure `trigger`/`pr`/`schedules`, ...). */
  triggers: string[];
  /** Other configuration it pulls in (GitLab `include`, Azure templates, CircleCI orbs). */
  includes: string[];
}

/** Most names listed per kind; a file with more says `truncated`. */
export const CI_MAX_NAMES = 200;

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Collects names in first-seen order without duplicates, up to CI_MAX_NAMES. */
export class Names {
  private readonly seen = new Set<string>();
  truncated = false;
  add(name: string | undefined): void {
    if (name === undefined || this.seen.has(name)) return;
    if (this.seen.size >= CI_MAX_NAMES) {
      this.truncated = true;
      return;
    }
    this.seen.add(name);
  }
  get values(): string[] {
    return [...this.seen];
  }
}

/** Builds a shape from name collectors; `truncated` is true when any collector dropped names. */
export function shapeOf(parts: {
  name?: string | null;
  workflows?: Names;
  jobs?: Names;
  stages?: Names;
  triggers?: Names;
  includes?: Names;
}): CiShape & { truncated: boolean } {
  const all = [parts.workflows, parts.jobs, parts.stages, parts.triggers, parts.includes];
  return {
    name: parts.name ?? null,
    workflows: parts.workflows?.values ?? [],
    jobs: parts.jobs?.values ?? [],
    stages: parts.stages?.values ?? [],
    triggers: parts.triggers?.values ?? [],
    includes: parts.includes?.values ?? [],
    truncated: all.some((n) => n?.truncated),
  };
}

/** Keys of an object value, or the strings of a list, or the string itself (GitHub `on`, Azure `trigger`). */
export function keysOrItems(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap((x) => str(x) ?? (isObj(x) ? Object.keys(x) : []));
  if (isObj(v)) return Object.keys(v);
  return [];
}
