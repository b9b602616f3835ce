import { isObj, list, Names, type Obj, shapeOf, str } from './shape.js';

const firstLine = (v: unknown): string | undefined => {
  const s = str(v) ?? (Array.isArray(v) ? str(v[0]) : undefined);
  return s?.split('\n')[0]?.trim() || undefined;
};

function buildkiteSteps(steps: unknown[], jobs: Names, stages: Names, depth: number): void {
  for (const s of steps) {
    // `wait` (a string or {wait}) and `block`/`input` steps are gates, not jobs.
    if (!isObj(s) || s.wait !== undefined || s.block !== undefined || s.input !== undefined) continue;
    if (s.group !== undefined && depth === 0) {
      stages.add(str(s.group) ?? str(s.label) ?? str(s.key));
      buildkiteSteps(list(s.steps), jobs, stages, 1);
      continue;
    }
    const trigger = str(s.trigger);
    jobs.add(
      str(s.label) ??
        str(s.name) ??
        str(s.key) ??
        (trigger ? `trigger ${trigger}` : firstLine(s.command ?? s.commands)),
    );
  }
}

/** Buildkite: `steps` (or a bare list, the older form): command and trigger steps are jobs, groups are stages. */
export function buildkiteShape(doc: unknown) {
  const jobs = new Names();
  const stages = new Names();
  const steps = Array.isArray(doc) ? doc : isObj(doc) ? list(doc.steps) : [];
  buildkiteSteps(steps, jobs, stages, 0);
  return shapeOf({ jobs, stages });
}

/** Travis CI: `stages` (names or {name}), `jobs.include` (or the older `matrix.include`) names. */
export function travisShape(doc: Obj) {
  const jobs = new Names();
  const stages = new Names();
  for (const s of list(doc.stages)) stages.add(str(s) ?? (isObj(s) ? str(s.name) : undefined));
  const matrix = isObj(doc.jobs) ? doc.jobs : isObj(doc.matrix) ? doc.matrix : {};
  for (const j of list(matrix.include)) {
    if (!isObj(j)) continue;
    jobs.add(str(j.name));
    stages.add(str(j.stage));
  }
  return shapeOf({ name: null, jobs, stages });
}

function bitbucketSteps(items: unknown[], jobs: Names): void {
  for (const item of items) {
    if (!isObj(item)) continue;
    if (isObj(item.step)) jobs.add(str(item.step.name) ?? '(step)');
    const parallel = item.parallel;
    if (parallel !== undefined)
      bitbucketSteps(Array.isArray(parallel) ? parallel : list((parallel as Obj).steps), jobs);
    if (isObj(item.stage)) bitbucketSteps(list(item.stage.steps), jobs);
  }
}

/** Bitbucket Pipelines: each pipeline (`default`, `branches:<glob>`, `custom:<name>`, ...) and its step names. */
export function bitbucketShape(doc: Obj) {
  const workflows = new Names();
  const jobs = new Names();
  const triggers = new Names();
  const pipelines = isObj(doc.pipelines) ? doc.pipelines : {};
  for (const [kind, v] of Object.entries(pipelines)) {
    if (Array.isArray(v)) {
      workflows.add(kind);
      triggers.add(kind);
      bitbucketSteps(v, jobs);
    } else if (isObj(v)) {
      triggers.add(kind);
      for (const [name, steps] of Object.entries(v)) {
        workflows.add(`${kind}:${name}`);
        bitbucketSteps(list(steps), jobs);
      }
    }
  }
  return shapeOf({ workflows, jobs, triggers });
}

/** Drone: one pipeline per YAML document (`kind: pipeline`, `name`), its `steps[].name`; `trigger.event`. */
export function droneShape(docs: unknown[]) {
  const workflows = new Names();
  const jobs = new Names();
  const triggers = new Names();
  for (const d of docs) {
    if (!isObj(d) || (d.kind !== undefined && d.kind !== 'pipeline')) continue;
    workflows.add(str(d.name) ?? 'default');
    for (const s of list(d.steps)) if (isObj(s)) jobs.add(str(s.name));
    const ev = isObj(d.trigger) ? d.trigger.event : undefined;
    for (const e of Array.isArray(ev) ? ev : isObj(ev) ? list(ev.include) : [ev]) triggers.add(str(e));
  }
  return shapeOf({ workflows, jobs, triggers });
}

/** AppVeyor: the build's `version` format is no name; jobs come from a build matrix's `job_name` entries. */
export function appveyorShape(doc: Obj) {
  const jobs = new Names();
  const env = isObj(doc.environment) ? doc.environment : {};
  for (const m of list(env.matrix)) if (isObj(m)) jobs.add(str(m.job_name));
  return shapeOf({ jobs });
}

/**
 * Jenkinsfile (Groovy, not parsed as a program): stage names from `stage('name')` / `stage("name")` calls, and
 * whether it is a declarative pipeline (`pipeline {`) or a scripted one (`node {`). Stages built in loops or named
 * by variables are not seen.
 */
export function jenkinsShape(text: string) {
  const stages = new Names();
  // Comments out first, so a commented-out stage is not listed.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  for (const m of code.matchAll(/\bstage\s*\(\s*(['"])((?:(?!\1).)+)\1/g)) stages.add(m[2]!.trim());
  const triggers = new Names();
  const trig = /\btriggers\s*\{([^}]*)\}/.exec(code);
  if (trig) for (const t of trig[1]!.matchAll(/\b(cron|pollSCM|upstream|githubPush)\b/g)) triggers.add(t[1]);
  const declarative = /^\s*pipeline\s*\{/m.test(code);
  return {
    ...shapeOf({ stages, triggers }),
    style: (declarative ? 'declarative' : 'scripted') as 'declarative' | 'scripted',
  };
}
