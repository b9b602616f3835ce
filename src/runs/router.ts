import { ValidationError } from '../infra/index.js';
import type { RequestClass } from './class-schema.js';

/**
 * Words that say nothing about the kind of work (the earlier product's 27-word stoplist): dropped from asks and
 * triggers before scoring.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'i',
  'in',
  'into',
  'is',
  'it',
  'me',
  'my',
  'of',
  'on',
  'or',
  'please',
  'that',
  'the',
  'this',
  'to',
  'we',
  'with',
]);

/** Longest ask `route query` takes: an ask is a sentence or a paragraph, not a document. */
export const MAX_ASK_CHARS = 4096;
export const DEFAULT_ROUTE_LIMIT = 5;
export const MAX_ROUTE_LIMIT = 100;

const TOKEN_RE = /[a-z0-9]+/g;

/** The distinct tokens of a text: runs of `[a-z0-9]` of its lower-case form, stopwords dropped, in first order. */
export function tokenize(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(TOKEN_RE)) if (!STOPWORDS.has(m[0])) out.add(m[0]);
  return [...out];
}

/**
 * Tokens of triggers already seen, so a long-running process (a server, an MCP session) tokenizes each trigger
 * once rather than on every query. Bounded: cleared whole when full (triggers change rarely).
 */
const triggerTokens = new Map<string, string[]>();
const MAX_CACHED_TRIGGERS = 50_000;

function tokensOfTrigger(trigger: string): string[] {
  let t = triggerTokens.get(trigger);
  if (t === undefined) {
    if (triggerTokens.size >= MAX_CACHED_TRIGGERS) triggerTokens.clear();
    t = tokenize(trigger);
    triggerTokens.set(trigger, t);
  }
  return t;
}

export interface RouteMatch {
  id: string;
  title: string;
  /** Best trigger F1 (2|q∩t| / (|q|+|t|)), rounded to 4 decimals. */
  confidence: number;
  /** `matched:<token>,<token>` of the best trigger. */
  why: string;
  /** The trigger that scored best. */
  trigger: string;
  class: RequestClass;
}

export interface RouteAnswer {
  ok: boolean;
  ask: string;
  count: number;
  matches: RouteMatch[];
  /** What to do when nothing matched. */
  hint?: string;
}

/**
 * Scores `ask` against every class: per class the best F1 of the ask's tokens against one trigger's tokens
 * (`2|q∩t| / (|q|+|t|)`, over distinct tokens), ties between triggers going to the first. Classes scoring zero are
 * dropped; the rest sort by confidence (highest first), then id. `ok: false` with a hint when none matches.
 */
export function routeQuery(
  classes: readonly RequestClass[],
  ask: string,
  limit = DEFAULT_ROUTE_LIMIT,
): RouteAnswer {
  if (ask.length > MAX_ASK_CHARS)
    throw new ValidationError(`ask: ${ask.length} characters; an ask is at most ${MAX_ASK_CHARS}`, {
      field: 'ask',
      value: `${ask.slice(0, 80)}...`,
      rule: `max ${MAX_ASK_CHARS} characters`,
    });
  const q = new Set(tokenize(ask));
  const scored: Array<{ c: RequestClass; f1: number; matched: string[]; trigger: string }> = [];
  if (q.size > 0)
    for (const c of classes) {
      let best: { f1: number; matched: string[]; trigger: string } | undefined;
      for (const trigger of c.triggers) {
        const t = tokensOfTrigger(trigger);
        if (t.length === 0) continue;
        const matched = t.filter((w) => q.has(w));
        const f1 = (2 * matched.length) / (q.size + t.length);
        if (f1 > 0 && (!best || f1 > best.f1)) best = { f1, matched, trigger };
      }
      if (best) scored.push({ c, ...best });
    }
  scored.sort((a, b) => b.f1 - a.f1 || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  const matches = scored.slice(0, limit).map((s) => ({
    id: s.c.id,
    title: s.c.title,
    confidence: Math.round(s.f1 * 10_000) / 10_000,
    why: `matched:${s.matched.join(',')}`,
    trigger: s.trigger,
    class: s.c,
  }));
  if (matches.length > 0) return { ok: true, ask, count: matches.length, matches };
  return {
    ok: false,
    ask,
    count: 0,
    matches: [],
    hint:
      q.size === 0
        ? 'the ask has no words to route on (only stopwords or punctuation)'
        : `no request class matches; add one: hub route add --id <id> --title <title> --trigger "${[...q].slice(0, 8).join(' ')}"`,
  };
}
