import type { Node } from 'web-tree-sitter';
import {
  type Extracted,
  type FoundSymbol,
  type FoundTest,
  kids,
  lineOf,
  type SymbolKind,
} from './extract-types.js';

/** Go exports what starts with an upper-case letter. */
const exported = (name: string): boolean => {
  const c = name.codePointAt(0);
  if (c === undefined) return false;
  const ch = String.fromCodePoint(c);
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
};

/** The receiver's type name: `(s *Server)` -> `Server`, `(l List[T])` -> `List`. */
function receiverType(recv: Node | null): string | undefined {
  const param = recv ? kids(recv).find((c) => c.type === 'parameter_declaration') : undefined;
  let t = param?.childForFieldName('type') ?? null;
  while (t && (t.type === 'pointer_type' || t.type === 'generic_type' || t.type === 'parenthesized_type'))
    t = t.type === 'generic_type' ? t.childForFieldName('type') : (kids(t)[0] ?? null);
  return t?.text;
}

function typeKind(spec: Node): SymbolKind {
  const t = spec.childForFieldName('type');
  if (t?.type === 'struct_type') return 'class';
  if (t?.type === 'interface_type') return 'interface';
  return 'type';
}

/** Exported functions, methods (of exported types), types, constants and variables at the top of a Go file. */
export function goSymbols(root: Node): FoundSymbol[] {
  const out: FoundSymbol[] = [];
  const add = (name: Node | null, kind: SymbolKind, receiver?: string) => {
    if (name && exported(name.text))
      out.push({ name: name.text, kind, line: lineOf(name), ...(receiver ? { receiver } : {}) });
  };
  for (const top of kids(root)) {
    switch (top.type) {
      case 'function_declaration':
        add(top.childForFieldName('name'), 'function');
        break;
      case 'method_declaration': {
        const recv = receiverType(top.childForFieldName('receiver'));
        if (recv && exported(recv)) add(top.childForFieldName('name'), 'method', recv);
        break;
      }
      case 'type_declaration':
        for (const spec of kids(top))
          if (spec.type === 'type_spec' || spec.type === 'type_alias')
            add(spec.childForFieldName('name'), spec.type === 'type_alias' ? 'type' : typeKind(spec));
        break;
      case 'const_declaration':
      case 'var_declaration':
        for (const spec of kids(top))
          for (const n of spec.childrenForFieldName('name')) if (n?.type === 'identifier') add(n, 'variable');
        break;
    }
  }
  return out;
}

/** What `go test` runs: Test, Benchmark, Fuzz and Example functions of `_test.go` files. */
export function goTests(root: Node): FoundTest[] {
  const out: FoundTest[] = [];
  for (const top of kids(root)) {
    if (top.type !== 'function_declaration') continue;
    const name = top.childForFieldName('name');
    const m = name ? /^(Test|Benchmark|Fuzz|Example)(.*)$/.exec(name.text) : null;
    // The suffix may not start with a lower-case letter (`Testify` is no test).
    if (!name || !m || (m[2] && m[2][0] !== m[2][0]!.toUpperCase())) continue;
    out.push({ name: name.text, line: lineOf(name), framework: 'go test' });
  }
  return out;
}

export function extractGo(root: Node, path: string): Extracted {
  return path.endsWith('_test.go')
    ? { symbols: [], tests: goTests(root) }
    : { symbols: goSymbols(root), tests: [] };
}
