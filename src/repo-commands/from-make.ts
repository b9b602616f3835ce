import { command, type Detector } from './folder.js';
import { at, COMMAND_LIMITS, readRepoText, under } from './text.js';
import { type DeclaredCommand, kindOf } from './types.js';

/** The names GNU make looks for, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/**
 * A rule line: targets, then `:` or `::` (not an assignment such as `X := y` or `X ::= y`). One quantifier before
 * the colon, so a long line without one costs linear time.
 */
const RULE = /^([^\s:#=][^:#=]*)::?(?![:=])/;
const ASSIGNMENT = /^[^:#=]*(?::{1,3}=|[?+!]=)/;

/**
 * Makefile targets (explicit rules at the start of a line) whose name says build, test or lint, as `make
 * <target>`. Special targets (`.PHONY`), pattern rules (`%.o`) and targets named by variables are left out.
 */
export const makeTargets: Detector = (folder) => {
  const name = MAKEFILES.find((m) => folder.files.has(m));
  if (!name) return [];
  const file = under(folder.dir, name);
  const text = readRepoText(folder.root, file);
  if (text === undefined) return [];
  const out: DeclaredCommand[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && out.length < COMMAND_LIMITS.maxPerFile; i++) {
    const line = lines[i]!;
    if (ASSIGNMENT.test(line)) continue;
    const m = RULE.exec(line);
    if (!m) continue;
    for (const target of m[1]!.trim().split(/\s+/)) {
      if (target.startsWith('.') || /[%$()]/.test(target) || seen.has(target)) continue;
      seen.add(target);
      const kind = kindOf(target);
      if (kind) out.push(command(folder, { kind, command: `make ${target}`, source: at(file, i + 1) }));
    }
  }
  return out;
};
