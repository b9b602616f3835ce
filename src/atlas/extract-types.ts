import type { Node } from 'web-tree-sitter';

export type SymbolKind = 'function' | 'class' | 'type' | 'interface' | 'variable' | 'method';

/** One exported declaration, at the line of its name (1-based). */
export interface FoundSymbol {
  name: string;
  kind: SymbolKind;
  line: number;
  /** The type a method belongs to (Go receivers, Rust impl blocks). */
  receiver?: string;
}

/** One test, at the line of its name (1-based); `name` joins enclosing suites with ` > `. */
export interface FoundTest {
  name: string;
  line: number;
  framework: string;
}

export interface Extracted {
  symbols: FoundSymbol[];
  tests: FoundTest[];
}

/** Named children without the nulls the binding may hand back. */
export function kids(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => c !== null);
}

/** 1-based line of a node. */
export const lineOf = (n: Node): number => n.startPosition.row + 1;

/** The text of a string literal node without its quotes (template strings included), or undefined. */
export function stringValue(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type !== 'string' && n.type !== 'template_string' && n.type !== 'interpreted_string_literal')
    return undefined;
  const t = n.text;
  return t.length >= 2 ? t.slice(1, -1) : undefined;
}
