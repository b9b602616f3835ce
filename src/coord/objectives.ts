import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isInside, NotFoundError, realpathOrUndefined, ValidationError } from '../infra/index.js';
import { objectiveChangeEvent, recordObjectiveChange } from './change-events.js';
import {
  type CoordDeps,
  checkId,
  DOCS,
  readDoc,
  readDocSettingAside,
  recordsInStep,
  updateDoc,
} from './documents.js';
import {
  EDITABLE_OBJECTIVE_FIELDS,
  type EditableObjectiveField,
  OBJECTIVE_STATUSES,
  type Objective,
  type ObjectiveStatus,
  ObjectivesDocSchema,
} from './schemas.js';
import type { SetAsideRecord } from './set-aside.js';

/** Quick notes appended to `agent_notes` as dated lines; `notes_file` is the text of the file, not its path. */
export interface QuickNotes {
  left_off?: string;
  next?: string;
  blockers?: string;
  notes_file?: string;
}

/** Input of create-or-merge; on create `title` is required, on merge every field is optional. */
export interface ObjectiveUpsert {
  id?: string;
  title?: string;
  status?: string;
  repos?: string[];
  acceptance?: string;
  human_notes?: string;
  agent_notes?: string;
  mr_url?: string;
  approval_id?: string;
  notes?: QuickNotes;
}

export interface UpsertOptions {
  /** Workspace root: absolute in-workspace repo paths become `./...` relative to it. */
  root: string;
  /** Status of a new objective when none is given (`pending`; pause uses `in_progress`). */
  defaultStatus?: ObjectiveStatus;
  /** Status forced on both create and merge (pause). */
  forceStatus?: ObjectiveStatus;
}

export interface UpsertResult {
  created: boolean;
  objective: Objective;
}

const NOTE_LABELS: Array<[keyof QuickNotes, string]> = [
  ['left_off', 'left off'],
  ['next', 'next'],
  ['blockers', 'blockers'],
  ['notes_file', 'notes'],
];

/** Checks an objective status, naming the allowed values. */
export function parseObjectiveStatus(value: unknown): ObjectiveStatus {
  if (typeof value === 'string' && (OBJECTIVE_STATUSES as readonly string[]).includes(value))
    return value as ObjectiveStatus;
  throw new ValidationError(
    `status: '${String(value)}' is not an objective status; allowed: ${OBJECTIVE_STATUSES.join(', ')}`,
    { field: 'status', value, allowed: [...OBJECTIVE_STATUSES], rule: 'enum' },
  );
}

/** An id from a title: lowercase words joined by `-`, at most 64 characters. */
export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (!slug)
    throw new ValidationError(`title: '${title}' gives an empty id; pass an id`, {
      field: 'id',
      value: title,
      rule: 'slug',
    });
  return slug;
}

function checkTitle(title: string): string {
  const t = title.trim();
  if (!t)
    throw new ValidationError('title: must not be empty', { field: 'title', value: title, rule: 'nonempty' });
  return t;
}

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * Normalizes one repo reference: an absolute path inside the workspace becomes `./<relative>` (`.` for the root
 * itself); external absolute paths and `project/repo` references are kept as given (trimmed).
 */
export function normalizeRepoRef(root: string, ref: string): string {
  const r = ref.trim();
  if (!r)
    throw new ValidationError('repos: empty repository reference', { field: 'repos', rule: 'nonempty' });
  if (!isAbsolute(r)) return r;
  const roots = [resolve(root), realpathOrUndefined(root)].filter((x): x is string => !!x);
  const targets = [resolve(r), realpathOrUndefined(r)].filter((x): x is string => !!x);
  for (const base of roots) {
    for (const abs of targets) {
      if (!isInside(base, abs)) continue;
      const rel = toPosix(relative(base, abs));
      return rel === '' ? '.' : `./${rel}`;
    }
  }
  return r;
}

export function normalizeRepos(root: string, repos: readonly string[]): string[] {
  return [...new Set(repos.map((r) => normalizeRepoRef(root, r)))];
}

/** `[<ISO time>] <label>: <text>`; continuation lines of multi-line text are indented by two spaces. */
export function formatNoteLines(at: Date, notes: QuickNotes): string[] {
  const lines: string[] = [];
  for (const [key, label] of NOTE_LABELS) {
    const text = notes[key]?.trim();
    if (!text) continue;
    lines.push(`[${at.toISOString()}] ${label}: ${text.replace(/\r?\n/g, '\n  ')}`);
  }
  return lines;
}

function appendNotes(existing: string | undefined, lines: string[]): string | undefined {
  if (lines.length === 0) return existing;
  const head = existing?.replace(/\s+$/, '');
  return [head, ...lines].filter((x) => x).join('\n');
}

/** Creates an objective or merges into the one with the same id (repos are unioned, notes appended). */
export async function upsertObjective(
  deps: CoordDeps,
  input: ObjectiveUpsert,
  opts: UpsertOptions,
): Promise<UpsertResult> {
  const title = input.title === undefined ? undefined : checkTitle(input.title);
  const given = input.id?.trim();
  if (!given && title === undefined)
    throw new ValidationError('id: required, or a title to derive it from', {
      field: 'id',
      rule: 'required',
    });
  const id = checkId(given || slugify(title!));
  const status =
    opts.forceStatus ?? (input.status === undefined ? undefined : parseObjectiveStatus(input.status));
  const repos = input.repos === undefined ? undefined : normalizeRepos(opts.root, input.repos);
  const inStep = recordsInStep(deps.store);
  const out = await updateDoc(
    deps,
    DOCS.objectives,
    ObjectivesDocSchema,
    (doc): UpsertResult => {
      const now = deps.now();
      const stamp = now.toISOString();
      const noteLines = formatNoteLines(now, input.notes ?? {});
      const existing = doc.objectives.find((o) => o.id === id);
      const fields = {
        ...(input.acceptance === undefined ? {} : { acceptance: input.acceptance }),
        ...(input.human_notes === undefined ? {} : { human_notes: input.human_notes }),
        ...(input.mr_url === undefined ? {} : { mr_url: input.mr_url }),
        ...(input.approval_id === undefined ? {} : { approval_id: input.approval_id }),
      };
      if (existing) {
        Object.assign(existing, fields);
        if (title !== undefined) existing.title = title;
        if (status !== undefined) existing.status = status;
        if (repos !== undefined) existing.repos = [...new Set([...existing.repos, ...repos])];
        const agentNotes = appendNotes(input.agent_notes ?? existing.agent_notes, noteLines);
        if (agentNotes !== undefined) existing.agent_notes = agentNotes;
        existing.updated_at = stamp;
        return { created: false, objective: existing };
      }
      if (title === undefined) {
        throw new ValidationError(`title: required to create objective '${id}'`, {
          field: 'title',
          rule: 'required_on_create',
          id,
        });
      }
      const agentNotes = appendNotes(input.agent_notes, noteLines);
      const objective: Objective = {
        id,
        title,
        status: status ?? opts.defaultStatus ?? 'pending',
        repos: repos ?? [],
        ...fields,
        ...(agentNotes === undefined ? {} : { agent_notes: agentNotes }),
        created_at: stamp,
        updated_at: stamp,
      };
      doc.objectives.push(objective);
      return { created: true, objective };
    },
    inStep ? (r) => [objectiveChangeEvent(r.objective, r.created)] : undefined,
  );
  if (!inStep) await recordObjectiveChange(deps.store, out.objective, out.created);
  return out;
}

/** Checks edit field names before any read, naming the editable fields. */
export function checkEditableFields(fields: string[]): EditableObjectiveField[] {
  for (const f of fields) {
    if (!(EDITABLE_OBJECTIVE_FIELDS as readonly string[]).includes(f)) {
      throw new ValidationError(
        `field '${f}' cannot be edited; editable fields: ${EDITABLE_OBJECTIVE_FIELDS.join(', ')}`,
        { field: f, allowed: [...EDITABLE_OBJECTIVE_FIELDS], rule: 'editable_field' },
      );
    }
  }
  return fields as EditableObjectiveField[];
}

/** A repos value from the CLI: a JSON array, or a comma-separated list. */
function reposFromValue(value: unknown): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  if (typeof value === 'string') {
    const t = value.trim();
    if (t.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(t);
      } catch {
        parsed = undefined; // not JSON: the comma rule below
      }
      if (parsed !== undefined) {
        if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string')) return parsed;
        // The text, not what it parsed to: a nested list may be deeper than anything can print.
        throw new ValidationError('repos: a JSON list here must hold strings only', {
          field: 'repos',
          value: t.length > 80 ? `${t.slice(0, 80)}...` : t,
          rule: 'string_list',
        });
      }
    }
    return t
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s);
  }
  throw new ValidationError('repos: expected a list of strings or a comma-separated string', {
    field: 'repos',
    value,
    rule: 'string_list',
  });
}

/**
 * The checked changes of an edit: field names against the editable list, values against their rules, repos
 * normalized against `root`. Plain data, so a client can check and normalize before a server applies it.
 */
export function objectivePatch(changes: Record<string, unknown>, root: string): Partial<Objective> {
  const fields = checkEditableFields(Object.keys(changes));
  if (fields.length === 0)
    throw new ValidationError(`nothing to edit; editable fields: ${EDITABLE_OBJECTIVE_FIELDS.join(', ')}`, {
      field: 'field',
      allowed: [...EDITABLE_OBJECTIVE_FIELDS],
      rule: 'required',
    });
  const patch: Partial<Objective> = {};
  for (const f of fields) {
    const v = changes[f];
    if (f === 'status') patch.status = parseObjectiveStatus(v);
    else if (f === 'repos') patch.repos = normalizeRepos(root, reposFromValue(v));
    else if (typeof v !== 'string')
      throw new ValidationError(`${f}: expected a string`, { field: f, value: v, rule: 'string' });
    else if (f === 'title') patch.title = checkTitle(v);
    else patch[f] = v;
  }
  return patch;
}

/** Replaces editable fields of an existing objective (repos are replaced, not merged). */
export async function editObjective(
  deps: CoordDeps,
  id: string,
  changes: Record<string, unknown>,
  root: string,
): Promise<Objective> {
  const patch = objectivePatch(changes, root);
  const inStep = recordsInStep(deps.store);
  const objective = await updateDoc(
    deps,
    DOCS.objectives,
    ObjectivesDocSchema,
    (doc) => {
      const o = doc.objectives.find((x) => x.id === id);
      if (!o) throw new NotFoundError(`objective '${id}' not found`, { field: 'id', value: id });
      Object.assign(o, patch, { updated_at: deps.now().toISOString() });
      return o;
    },
    inStep ? (o) => [objectiveChangeEvent(o, false)] : undefined,
  );
  if (!inStep) await recordObjectiveChange(deps.store, objective, false);
  return objective;
}

export async function listObjectives(deps: CoordDeps): Promise<Objective[]> {
  return (await readDoc(deps, DOCS.objectives, ObjectivesDocSchema)).objectives;
}

/** Every objective, and (only when there are some) the stored records set aside as invalid. */
export async function objectiveListing(
  deps: CoordDeps,
): Promise<{ objectives: Objective[]; set_aside?: SetAsideRecord[] }> {
  const { doc, setAside } = await readDocSettingAside(deps, DOCS.objectives, ObjectivesDocSchema);
  return { objectives: doc.objectives, ...(setAside.length > 0 ? { set_aside: setAside } : {}) };
}
