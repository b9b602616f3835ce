import { join } from 'node:path';
import type { Node, Scalar, YAMLMap } from 'yaml';
import { tryReadFileBounded } from '../infra/index.js';
import { yaml } from '../model/index.js';
import type { CiFileRef } from './files.js';

/** One shell line a CI job runs, and where the file says so. */
export interface CiRunLine {
  /** The line as written (continuation lines joined). */
  command: string;
  /** 1-based line in the CI file. */
  line: number;
  job: string;
  /** Folder the step runs in (`working-directory` of the step, job or workflow), as written. */
  dir?: string;
}

/** Most run lines taken from one CI file. */
export const CI_MAX_RUN_LINES = 200;
/** Largest CI file read for run lines. */
const MAX_BYTES = 512 * 1024;

/** Providers whose run lines hub reads. */
export const RUN_LINE_PROVIDERS = ['github_actions', 'gitlab_ci', 'circleci'] as const;

/** GitLab's global keywords: the other top-level keys not starting with `.` are jobs. */
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

type Y = ReturnType<typeof yaml>;

interface Walk {
  y: Y;
  lineOf: (offset: number) => number;
  out: CiRunLine[];
}

const strOf = (y: Y, n: unknown): string | undefined => {
  const v = y.isScalar(n) ? n.value : undefined;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

const mapOf = (y: Y, n: unknown): YAMLMap | undefined => (y.isMap(n) ? n : undefined);

/** The shell lines of one script scalar, each with its line in the file. */
function scriptLines(w: Walk, node: unknown, job: string, dir: string | undefined): void {
  if (!w.y.isScalar(node) || typeof node.value !== 'string' || !node.range) return;
  const s = node as Scalar<string>;
  const start = w.lineOf(s.range![0]);
  // A literal block keeps its lines: content starts on the line after the `|`. Anything else is one line.
  const literal = s.type === 'BLOCK_LITERAL';
  const lines = literal ? s.value.split('\n') : [s.value.replace(/\s*\n\s*/g, ' ')];
  let pending: { text: string; line: number } | undefined;
  for (let i = 0; i < lines.length && w.out.length < CI_MAX_RUN_LINES; i++) {
    const text = lines[i]!.trim();
    const line = literal ? start + 1 + i : start;
    const joined = pending ? { text: `${pending.text} ${text}`, line: pending.line } : { text, line };
    if (joined.text.endsWith('\\')) {
      pending = { text: joined.text.slice(0, -1).trimEnd(), line: joined.line };
      continue;
    }
    pending = undefined;
    if (joined.text === '' || joined.text.startsWith('#')) continue;
    w.out.push({ command: joined.text, line: joined.line, job, ...(dir ? { dir } : {}) });
  }
}

/** A script that is one scalar or a list of them (GitLab `script`). */
function scriptNode(w: Walk, node: unknown, job: string, dir?: string): void {
  if (w.y.isSeq(node)) for (const item of node.items) scriptNode(w, item, job, dir);
  else scriptLines(w, node, job, dir);
}

function runDir(y: Y, defaults: unknown): string | undefined {
  return strOf(y, mapOf(y, mapOf(y, defaults)?.get('run', true))?.get('working-directory', true));
}

function github(w: Walk, doc: YAMLMap): void {
  const { y } = w;
  const top = runDir(y, doc.get('defaults', true));
  const jobs = mapOf(y, doc.get('jobs', true));
  for (const pair of jobs?.items ?? []) {
    const job = strOf(y, pair.key) ?? '';
    const body = mapOf(y, pair.value);
    if (!body) continue;
    const jobDir = runDir(y, body.get('defaults', true)) ?? top;
    const steps = body.get('steps', true);
    for (const step of y.isSeq(steps) ? steps.items : []) {
      const m = mapOf(y, step);
      if (!m) continue;
      scriptLines(w, m.get('run', true), job, strOf(y, m.get('working-directory', true)) ?? jobDir);
    }
  }
}

function gitlab(w: Walk, doc: YAMLMap): void {
  const { y } = w;
  for (const pair of doc.items) {
    const job = strOf(y, pair.key);
    if (!job || GITLAB_GLOBAL.has(job) || job.startsWith('.')) continue;
    scriptNode(w, mapOf(y, pair.value)?.get('script', true), job);
  }
}

function circleci(w: Walk, doc: YAMLMap): void {
  const { y } = w;
  for (const pair of mapOf(y, doc.get('jobs', true))?.items ?? []) {
    const job = strOf(y, pair.key) ?? '';
    const body = mapOf(y, pair.value);
    const jobDir = strOf(y, body?.get('working_directory', true));
    const steps = body?.get('steps', true);
    for (const step of y.isSeq(steps) ? steps.items : []) {
      const run: unknown = mapOf(y, step)?.get('run', true);
      const long = mapOf(y, run);
      if (long)
        scriptLines(
          w,
          long.get('command', true),
          job,
          strOf(y, long.get('working_directory', true)) ?? jobDir,
        );
      else scriptLines(w, run, job, jobDir);
    }
  }
}

/**
 * The shell lines a CI file runs: GitHub Actions `run` steps (with `working-directory` from the step, the job's
 * or the workflow's `defaults.run`), GitLab CI job `script`s, CircleCI `run` steps. The file is read bounded
 * (a regular file inside the checkout); YAML aliases are not followed; an unreadable or invalid file has none.
 */
export function ciRunLines(root: string, ref: CiFileRef): CiRunLine[] {
  if (!(RUN_LINE_PROVIDERS as readonly string[]).includes(ref.provider)) return [];
  const read = tryReadFileBounded(join(root, ref.path), {
    root,
    maxBytes: MAX_BYTES,
    rootName: 'the repository',
  });
  if (!read.ok) return [];
  const y = yaml();
  const counter = new y.LineCounter();
  let doc: ReturnType<Y['parseDocument']>;
  try {
    doc = y.parseDocument(read.bytes.toString('utf8'), { uniqueKeys: false, lineCounter: counter });
  } catch {
    return [];
  }
  if (doc.errors.length > 0 || !y.isMap(doc.contents)) return [];
  const w: Walk = { y, lineOf: (o) => counter.linePos(o).line, out: [] };
  const top = doc.contents as YAMLMap<Node, Node>;
  if (ref.provider === 'github_actions') github(w, top);
  else if (ref.provider === 'gitlab_ci') gitlab(w, top);
  else circleci(w, top);
  return w.out;
}
