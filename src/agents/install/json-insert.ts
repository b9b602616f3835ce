import type { Node } from 'jsonc-parser';
import { jsonc } from './jsonc-lib.js';

// jsonc-parser's SyntaxKind is a const enum, which this build (verbatimModuleSyntax) cannot read: its values.
const SyntaxKind = {
  CommaToken: 5,
  LineCommentTrivia: 12,
  BlockCommentTrivia: 13,
  LineBreakTrivia: 14,
  Trivia: 15,
};

/** How the file indents and ends lines. */
export interface JsonStyle {
  unit: string;
  eol: string;
}

/** The leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** True when only whitespace precedes `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/**
 * After the last property of an object: where a comma already stands (JSONC allows a trailing one), and where
 * the property's line ends when only whitespace and comments follow it on that line (-1 otherwise).
 */
function afterLast(text: string, at: number): { comma: number; lineEnd: number } {
  const sc = jsonc().createScanner(text, false);
  sc.setPosition(at);
  let comma = -1;
  for (;;) {
    const tok: number = sc.scan();
    const off = sc.getTokenOffset();
    if (tok === SyntaxKind.Trivia || tok === SyntaxKind.LineCommentTrivia) continue;
    if (tok === SyntaxKind.BlockCommentTrivia) {
      if (text.slice(off, off + sc.getTokenLength()).includes('\n')) return { comma, lineEnd: -1 };
      continue;
    }
    if (tok === SyntaxKind.LineBreakTrivia) return { comma, lineEnd: text[off - 1] === '\r' ? off - 1 : off };
    if (tok === SyntaxKind.CommaToken && comma < 0) {
      comma = off;
      continue;
    }
    return { comma, lineEnd: -1 };
  }
}

/**
 * Inserts `"key": value` as the last property of the object node `obj`, touching no other byte: the new
 * property goes on a line of its own, indented like its siblings, after any comment that ends the line of the
 * last property (jsonc-parser's own `modify` re-formats the whole line it inserts on, which rewrote a user's
 * one-line entries and moved their comments).
 */
export function insertProperty(
  text: string,
  obj: Node,
  key: string,
  value: unknown,
  style: JsonStyle,
): string {
  const props = obj.children ?? [];
  const objIndent = lineIndent(text, obj.offset);
  const last = props[props.length - 1];
  const indent =
    last && startsLine(text, last.offset) ? lineIndent(text, last.offset) : objIndent + style.unit;
  const body = JSON.stringify(value, null, style.unit).replace(/\n/g, style.eol + indent);
  const prop = `${JSON.stringify(key)}: ${body}`;
  if (!last) {
    const open = obj.offset + 1;
    const close = obj.offset + obj.length - 1;
    const inner = text.slice(open, close);
    if (/^\s*$/.test(inner))
      return `${text.slice(0, open)}${style.eol}${indent}${prop}${style.eol}${objIndent}${text.slice(close)}`;
    return `${text.slice(0, open)}${style.eol}${indent}${prop}${text.slice(open)}`;
  }
  const at = last.offset + last.length;
  const { comma, lineEnd } = afterLast(text, at);
  const sep = comma < 0 ? ',' : '';
  if (lineEnd >= 0)
    return `${text.slice(0, at)}${sep}${text.slice(at, lineEnd)}${style.eol}${indent}${prop}${text.slice(lineEnd)}`;
  const pos = comma < 0 ? at : comma + 1;
  return `${text.slice(0, pos)}${sep}${style.eol}${indent}${prop}${text.slice(pos)}`;
}
