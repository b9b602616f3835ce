import { didYouMean, suggestionText } from '../catalog/index.js';
import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import {
  CLASS_LIMITS,
  CLASSES_DOCUMENT,
  ClassesDocSchema,
  checkClassId,
  type RequestClass,
} from './class-schema.js';
import { recordRunEvent } from './events.js';
import { listRuns } from './ledger-read.js';
import { tokenize } from './router.js';
import { TIERS, type Tier } from './run-schema.js';
import { checkName, checkText } from './text-fields.js';

/** What `route add` takes; on `update` every given field replaces the stored one. */
export interface ClassInput {
  id: string;
  title?: string;
  triggers?: string[];
  tier?: Tier;
  lane?: string;
  mutates?: boolean;
  executor?: string;
  skill?: string;
  artifact?: string;
  gates?: string[];
  notes?: string;
}

/** Every request class, in catalog order. */
export async function readClasses(deps: CoordDeps): Promise<RequestClass[]> {
  return (await readDoc(deps, CLASSES_DOCUMENT, ClassesDocSchema)).classes;
}

/** The error of an unknown class id, with the closest known ids (and how to add one when there are none). */
export function classNotFound(id: string, known: readonly RequestClass[], field = 'class'): NotFoundError {
  const suggestions = didYouMean(
    id,
    known.map((c) => c.id),
  );
  const add = known.length === 0 ? '; no request classes yet (add one with `hub route add`)' : '';
  return new NotFoundError(`${field}: no request class '${id}'${suggestionText(suggestions)}${add}`, {
    field,
    value: id,
    rule: 'known_class',
    suggestions,
  });
}

/** A class by id, or a NotFoundError with did-you-mean. */
export async function findClass(deps: CoordDeps, id: string, field = 'class'): Promise<RequestClass> {
  const classes = await readClasses(deps);
  const c = classes.find((x) => x.id === id);
  if (!c) throw classNotFound(id, classes, field);
  return c;
}

/** Triggers trimmed and de-duplicated; each must hold a word to route on, and the list is bounded. */
export function checkTriggers(triggers: readonly string[]): string[] {
  if (triggers.length > CLASS_LIMITS.triggers)
    throw new ValidationError(
      `trigger: ${triggers.length} triggers; a class has at most ${CLASS_LIMITS.triggers}`,
      {
        field: 'trigger',
        value: triggers.length,
        rule: `max ${CLASS_LIMITS.triggers} triggers`,
      },
    );
  const out: string[] = [];
  for (const raw of triggers) {
    const t = checkText(raw.trim(), 'trigger', CLASS_LIMITS.trigger_chars)!;
    if (tokenize(t).length === 0)
      throw new ValidationError(`trigger: '${t}' has no word to route on (only stopwords or punctuation)`, {
        field: 'trigger',
        value: t,
        rule: 'has_tokens',
      });
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

function checkGates(gates: readonly string[]): string[] {
  if (gates.length > CLASS_LIMITS.gates)
    throw new ValidationError(`gate: ${gates.length} gates; a class names at most ${CLASS_LIMITS.gates}`, {
      field: 'gate',
      value: gates.length,
      rule: `max ${CLASS_LIMITS.gates}`,
    });
  return [...new Set(gates.map((g) => checkName(g.trim(), 'gate')!))];
}

/** The fields of `input` checked, as they will be stored (undefined: not given). */
function classFields(input: ClassInput): Partial<RequestClass> {
  if (input.tier !== undefined && !TIERS.includes(input.tier))
    throw new ValidationError(`tier: '${String(input.tier)}' is not a tier (${TIERS.join(', ')})`, {
      field: 'tier',
      value: input.tier,
      rule: TIERS.join('|'),
    });
  const fields: Partial<RequestClass> = {
    title: checkText(input.title?.trim(), 'title', CLASS_LIMITS.title_chars),
    triggers: input.triggers === undefined ? undefined : checkTriggers(input.triggers),
    tier: input.tier,
    lane: checkName(input.lane, 'lane'),
    mutates: input.mutates,
    executor: checkText(input.executor, 'executor', CLASS_LIMITS.text_chars),
    skill: checkText(input.skill, 'skill', 200),
    artifact: checkText(input.artifact, 'artifact', 200),
    gates: input.gates === undefined ? undefined : checkGates(input.gates),
    notes: checkText(input.notes, 'notes', CLASS_LIMITS.text_chars),
  };
  for (const k of Object.keys(fields) as Array<keyof typeof fields>)
    if (fields[k] === undefined) delete fields[k];
  return fields;
}

/**
 * Adds a request class to `routing/classes` (atomically), or with `update` merges the given fields into an
 * existing one (its evidence and promotion state kept). A new class needs a title and at least one trigger; an
 * existing id without `update` is refused (409), as is an unknown one with it (404).
 */
export async function addClass(
  deps: CoordDeps,
  input: ClassInput,
  opts: { update?: boolean } = {},
): Promise<{ class: RequestClass; created: boolean }> {
  const id = checkClassId(input.id);
  const fields = classFields(input);
  if (!opts.update) {
    if (!fields.title)
      throw new ValidationError('title: required for a new class', { field: 'title', rule: 'required' });
    if (!fields.triggers?.length)
      throw new ValidationError('trigger: a new class needs at least one trigger', {
        field: 'trigger',
        rule: 'min 1 trigger',
      });
  }
  const at = deps.now().toISOString();
  const out = await updateDoc(deps, CLASSES_DOCUMENT, ClassesDocSchema, (doc) => {
    const i = doc.classes.findIndex((c) => c.id === id);
    if (i >= 0 && !opts.update)
      throw new RefusedError(
        `id: request class '${id}' already exists; pass update to change it`,
        { field: 'id', value: id, rule: 'class_exists' },
        409,
      );
    if (i < 0 && opts.update) throw classNotFound(id, doc.classes, 'id');
    if (i < 0 && doc.classes.length >= CLASS_LIMITS.classes)
      throw new RefusedError(
        `id: the catalog holds ${doc.classes.length} request classes, the most it keeps`,
        { field: 'id', value: id, rule: `max ${CLASS_LIMITS.classes} classes` },
        409,
      );
    if (i >= 0) {
      const merged: RequestClass = { ...doc.classes[i]!, ...fields, id, updated_at: at };
      doc.classes[i] = merged;
      return { class: merged, created: false };
    }
    const made: RequestClass = {
      id,
      title: fields.title!,
      triggers: fields.triggers!,
      tier: fields.tier ?? 'novel',
      mutates: fields.mutates ?? true,
      gates: fields.gates ?? [],
      promotion_state: 'stable',
      ...fields,
      created_at: at,
      updated_at: at,
    };
    doc.classes.push(made);
    return { class: made, created: true };
  });
  await recordRunEvent(deps, out.created ? 'RequestClassAdded' : 'RequestClassUpdated', id, {
    class_id: id,
    tier: out.class.tier,
    ...(out.created ? {} : { fields: Object.keys(fields) }),
  });
  return out;
}

/** Request classes, optionally of one tier, or only those ready for an executor (`promotion_state`). */
export async function listClasses(
  deps: CoordDeps,
  filter: { tier?: Tier; ready?: boolean } = {},
): Promise<{ classes: RequestClass[]; count: number }> {
  const classes = (await readClasses(deps)).filter(
    (c) =>
      (filter.tier === undefined || c.tier === filter.tier) &&
      (!filter.ready || c.promotion_state === 'ready-needs-executor'),
  );
  return { classes, count: classes.length };
}

/** Most runs `route show` lists (the newest); `run_count` counts them all. */
export const SHOW_CLASS_RUNS = 50;

/** A class with its runs (newest first, at most SHOW_CLASS_RUNS) and how many it has. */
export async function showClass(
  deps: CoordDeps,
  id: string,
): Promise<{ class: RequestClass; runs: Array<Record<string, unknown>>; run_count: number }> {
  const c = await findClass(deps, id, 'id');
  const runs = await listRuns(deps, { class: id });
  return {
    class: c,
    runs: runs.slice(0, SHOW_CLASS_RUNS).map((r) => ({
      run_id: r.run_id,
      status: r.status,
      actor: r.actor,
      tier: r.tier,
      outcome: r.outcome,
      opened_at: r.opened_at,
      closed_at: r.closed_at,
    })),
    run_count: runs.length,
  };
}
