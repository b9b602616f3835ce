import { isDeepStrictEqual } from 'node:util';
import { diffArrays } from 'diff';
import type { Document, ToStringOptions } from 'yaml';
import { yaml } from './yaml-lib.js';
import { YAML_LIMITS } from './yaml-source.js';

/** The file as it was read and the document's own rendering of it, taken before an edit. */
export interface YamlSnapshot {
  text: string;
  options: ToStringOptions;
  rendered: string;
}

/**
 * Past this many differing lines a line alignment is not worth its cost (Myers diff is O(N*D)); the save then
 * falls back to pairing lines by index, or to the plain rendering.
 */
const MAX_EDIT_LINES = 5000;

/**
 * Stringify options that follow the file's own style, so that most lines render exactly as written: flow
 * collections padded (`[ a ]`) or not (`[a]`), sequences indented under their key or not, the indent width;
 * never folding long lines.
 */
export function styleOf(text: string): ToStringOptions {
  let padded = 0;
  let tight = 0;
  for (const m of text.matchAll(/(?:^|[\s:,-])[[{]( ?)[^\s\]}#]/gm)) {
    if (m[1]) padded++;
    else tight++;
  }
  let seqIndented = 0;
  let seqFlush = 0;
  const steps = new Map<number, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length - 1; i++) {
    const key = /^( *)[^\s#-][^#]*:\s*(#.*)?$/.exec(lines[i]!);
    if (!key) continue;
    let j = i + 1;
    while (j < lines.length && /^\s*(#.*)?$/.test(lines[j]!)) j++;
    const next = /^( *)(-\s|\S)/.exec(lines[j] ?? '');
    if (!next) continue;
    const step = next[1]!.length - key[1]!.length;
    if (next[2]!.startsWith('-')) {
      if (step === 0) seqFlush++;
      else if (step > 0) seqIndented++;
    } else if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  const indent = [...steps].sort((x, y) => y[1] - x[1])[0]?.[0];
  return {
    lineWidth: 0,
    flowCollectionPadding: padded > tight,
    indentSeq: seqFlush <= seqIndented,
    ...(indent && indent >= 1 && indent <= 8 ? { indent } : {}),
  };
}

/** Takes the rendering of `doc` before it is edited; `text` is the file it was parsed from. */
export function snapshotYaml(text: string, doc: Document): YamlSnapshot {
  const options = styleOf(text);
  return { text, options, rendered: doc.toString(options) };
}

/**
 * The edited document as text, changing only the lines the edit changed: a line the edit left alone keeps its
 * original bytes (spacing, quotes, comments, long lines, CRLF), even where the YAML library would write it
 * differently. The result is checked to hold the same data as the plain rendering, which is used instead when not.
 */
export function renderKeepingSource(
  snap: YamlSnapshot,
  doc: Document,
  accept: (text: string) => boolean = (text) => sameData(text, doc),
): string {
  const rendered = doc.toString(snap.options);
  if (rendered === snap.rendered) return snap.text;
  const crlf = /\r\n/.test(snap.text);
  const original = crlf ? snap.text.replace(/\r\n/g, '\n') : snap.text;
  const merged = mergeLines(original.split('\n'), snap.rendered.split('\n'), rendered.split('\n'));
  if (merged === undefined) return rendered;
  const lf = merged.join('\n');
  const text = crlf ? lf.replace(/\n/g, '\r\n') : lf;
  return accept(text) ? text : rendered;
}

/** True when `text` parses to the same data as `doc` (a caller that parses the text anyway checks `sameJs`). */
export function sameData(text: string, doc: Document): boolean {
  try {
    const again = yaml().parseDocument(text, { uniqueKeys: false });
    return again.errors.length === 0 && sameJs(again, doc);
  } catch {
    return false;
  }
}

export function sameJs(a: Document, b: Document): boolean {
  const opts = { maxAliasCount: YAML_LIMITS.maxAliasCount };
  return isDeepStrictEqual(a.toJS(opts), b.toJS(opts));
}

/** Lines `o[o0..o1)` of the rendering that stand for lines `a[a0..a1)` of the file. */
interface Block {
  o0: number;
  o1: number;
  a0: number;
  a1: number;
}

/**
 * A line-level three-way merge: `a` is the file, `o` the document rendered before the edit, `b` after it.
 * The edit is the diff o -> b; the file's formatting is the diff o -> a. Where the edit leaves a stretch of o
 * alone, the file's lines for it are kept; where it changes a stretch, that stretch is taken from b.
 */
export function mergeLines(a: string[], o: string[], b: string[]): string[] | undefined {
  const blocks = align(o, a);
  const edit = diffArrays(o, b, { maxEditLength: MAX_EDIT_LINES });
  if (!blocks || !edit) return undefined;
  const deleted = new Uint8Array(o.length);
  const insBefore = new Map<number, string[]>();
  let i = 0;
  for (const ch of edit) {
    if (ch.added) {
      const list = insBefore.get(i) ?? [];
      list.push(...ch.value);
      insBefore.set(i, list);
    } else if (ch.removed) {
      deleted.fill(1, i, i + ch.count);
      i += ch.count;
    } else i += ch.count;
  }
  const oToA = new Int32Array(o.length).fill(-1);
  for (const blk of blocks) if (blk.o1 - blk.o0 === 1 && blk.a1 - blk.a0 === 1) oToA[blk.o0] = blk.a0;
  const shift = (line: string, before: number) => reindent(line, before, o, a, oToA);
  const out: string[] = [];
  let gapDone = -1;
  const gap = (k: number) => {
    if (k <= gapDone) return;
    gapDone = k;
    for (const line of insBefore.get(k) ?? []) out.push(shift(line, k));
  };
  for (const blk of blocks) {
    gap(blk.o0);
    let touched = false;
    for (let k = blk.o0; k < blk.o1 && !touched; k++)
      touched = deleted[k] === 1 || (k > blk.o0 && insBefore.has(k));
    if (!touched) {
      for (let k = blk.a0; k < blk.a1; k++) out.push(a[k]!);
      continue;
    }
    for (let k = blk.o0; k < blk.o1; k++) {
      if (k > blk.o0) gap(k);
      if (deleted[k] !== 1) out.push(shift(o[k]!, k));
    }
  }
  gap(o.length);
  return out;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Shifts a rendered line to the file's indentation at that place: the file may indent a level differently
 * (sequences flush under their key, four-space maps), so the shift is the one between the rendering and the
 * file on the nearest line above at the same or a shallower level.
 */
function reindent(line: string, before: number, o: string[], a: string[], oToA: Int32Array): string {
  if (line.trim() === '') return line;
  const own = indentOf(line);
  for (let j = before - 1, seen = 0; j >= 0 && seen < 2000; j--, seen++) {
    const ai = oToA[j]!;
    if (ai < 0 || o[j]!.trim() === '' || indentOf(o[j]!) > own) continue;
    const delta = indentOf(a[ai]!) - indentOf(o[j]!);
    if (delta === 0) return line;
    return delta > 0 ? ' '.repeat(delta) + line : line.slice(Math.min(-delta, own));
  }
  return line;
}

/** Pairs the rendering's lines with the file's: equal lines 1:1, a differing run of equal length line by line. */
function align(o: string[], a: string[]): Block[] | undefined {
  const changes = diffArrays(o, a, { maxEditLength: MAX_EDIT_LINES });
  if (!changes) {
    if (o.length !== a.length) return undefined;
    return o.map((_, k) => ({ o0: k, o1: k + 1, a0: k, a1: k + 1 }));
  }
  const blocks: Block[] = [];
  let oi = 0;
  let ai = 0;
  let removed = 0;
  let added = 0;
  const flush = () => {
    if (removed === added) {
      for (let k = 0; k < removed; k++)
        blocks.push({ o0: oi + k, o1: oi + k + 1, a0: ai + k, a1: ai + k + 1 });
    } else if (removed + added > 0) blocks.push({ o0: oi, o1: oi + removed, a0: ai, a1: ai + added });
    oi += removed;
    ai += added;
    removed = 0;
    added = 0;
  };
  for (const ch of changes) {
    if (ch.removed) removed += ch.count;
    else if (ch.added) added += ch.count;
    else {
      flush();
      for (let k = 0; k < ch.count; k++)
        blocks.push({ o0: oi + k, o1: oi + k + 1, a0: ai + k, a1: ai + k + 1 });
      oi += ch.count;
      ai += ch.count;
    }
  }
  flush();
  return blocks;
}
