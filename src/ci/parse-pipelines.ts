import { isObj, keysOrItems, list, Names, type Obj, shapeOf, str } from './shape.js';

/** GitHub Actions workflow: `name`, `on` (string, list or map), `jobs` (map; a job's `name` is display only). */
export function githubShape(doc: Obj, file: string) {
  const jobs = new Names();
  for (const k of Object.keys(isObj(doc.jobs) ? doc.jobs : {})) jobs.add(k);
  const triggers = new Names();
  for (const t of keysOrItems(doc.on)) triggers.add(t);
  const workflows = new Names();
  workflows.add(str(doc.name) ?? file.slice(file.lastIndexOf('/') + 1));
  return shapeOf({ name: str(doc.name) ?? null, workflows, jobs, triggers });
}

/** GitLab's global keywords: every other top-level key that does not start with `.` is a job. */
const GITLAB_GLOBAL = new Set([
  'default',
  'include',
  'stages',
  'variables',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
  'types',
  'spec',
]);

/** GitLab CI: jobs are the non-keyword, non-hidden top-level keys; `stages`; `include` (string, list or maps). */
export function gitlabShape(doc: Obj) {
  const jobs = new Names();
  const stages = new Names();
  const includes = new Names();
  for (const s of list(doc.stages)) stages.add(str(s));
  for (const [k, v] of Object.entries(doc)) {
    if (GITLAB_GLOBAL.has(k) || k.startsWith('.')) continue;
    jobs.add(k);
    if (isObj(v)) stages.add(str(v.stage));
  }
  const inc = doc.include;
  for (const i of Array.isArray(inc) ? inc : [inc]) {
    if (typeof i === 'string') includes.add(i);
    else if (isObj(i))
      includes.add(str(i.local) ?? str(i.project) ?? str(i.remote) ?? str(i.template) ?? str(i.component));
  }
  const triggers = new Names();
  const rules = isObj(doc.workflow) ? list(doc.workflow.rules) : [];
  if (rules.length > 0) triggers.add('workflow:rules');
  return shapeOf({ jobs, stages, includes, triggers });
}

/** CircleCI: `jobs` map, `workflows` map (its `version` key is not a workflow), `orbs`. */
export function circleciShape(doc: Obj) {
  const jobs = new Names();
  for (const k of Object.keys(isObj(doc.jobs) ? doc.jobs : {})) jobs.add(k);
  const workflows = new Names();
  const wf = isObj(doc.workflows) ? doc.workflows : {};
  for (const [k, v] of Object.entries(wf)) {
    if (k === 'version') continue;
    workflows.add(k);
    // Jobs a workflow runs from an orb (`node/test`) are not in `jobs`: list them too.
    if (isObj(v))
      for (const j of list(v.jobs)) for (const name of keysOrItems(j)) if (name.includes('/')) jobs.add(name);
  }
  const includes = new Names();
  if (isObj(doc.orbs)) for (const [k, v] of Object.entries(doc.orbs)) includes.add(str(v) ?? k);
  return shapeOf({ workflows, jobs, includes });
}

function azureJobs(items: unknown[], jobs: Names, includes: Names): void {
  for (const j of items) {
    if (!isObj(j)) continue;
    if (str(j.template)) includes.add(str(j.template));
    jobs.add(str(j.job) ?? str(j.deployment));
  }
}

/** Azure Pipelines: `stages[].stage` with their `jobs`, or top-level `jobs`, or bare `steps` (one job); triggers. */
export function azureShape(doc: Obj) {
  const jobs = new Names();
  const stages = new Names();
  const includes = new Names();
  for (const s of list(doc.stages)) {
    if (!isObj(s)) continue;
    if (str(s.template)) includes.add(str(s.template));
    stages.add(str(s.stage));
    azureJobs(list(s.jobs), jobs, includes);
  }
  azureJobs(list(doc.jobs), jobs, includes);
  if (jobs.values.length === 0 && Array.isArray(doc.steps)) jobs.add('(steps)');
  if (isObj(doc.extends)) includes.add(str(doc.extends.template));
  const triggers = new Names();
  for (const k of ['trigger', 'pr', 'schedules'] as const) {
    const v = doc[k];
    if (v === undefined) continue;
    // `trigger: none` turns the CI trigger off.
    if (v === 'none' || v === false) continue;
    triggers.add(k);
  }
  if (isObj(doc.resources) && doc.resources.pipelines !== undefined) triggers.add('resources.pipelines');
  return shapeOf({ jobs, stages, includes, triggers });
}
