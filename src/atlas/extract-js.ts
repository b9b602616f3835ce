import type { Node } from 'web-tree-sitter';
import {
  type Extracted,
  type FoundSymbol,
  type FoundTest,
  kids,
  lineOf,
  type SymbolKind,
  stringValue,
} from './extract-types.js';

const DECL_KIND: Record<string, SymbolKind> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'type',
};

/** Kind of a variable's value: a function or class expression makes the name a function or class. */
function valueKind(value: Node | null): SymbolKind {
  if (!value) return 'variable';
  if (['arrow_function', 'function', 'function_expression', 'generator_function'].includes(value.type))
    return 'function';
  if (value.type === 'class') return 'class';
  return 'variable';
}

/** The names one declaration introduces, each with its kind and name node. */
function declared(decl: Node): Array<{ name: string; kind: SymbolKind; at: Node }> {
  if (decl.type === 'ambient_declaration') return kids(decl).flatMap(declared);
  const kind = DECL_KIND[decl.type];
  if (kind) {
    const name = decl.childForFieldName('name');
    return name ? [{ name: name.text, kind, at: name }] : [];
  }
  if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration') {
    return kids(decl)
      .filter((d) => d.type === 'variable_declarator')
      .flatMap((d) => {
        const name = d.childForFieldName('name');
        return name?.type === 'identifier'
          ? [{ name: name.text, kind: valueKind(d.childForFieldName('value')), at: name }]
          : [];
      });
  }
  return [];
}

/**
 * Exported symbols of a TypeScript or JavaScript module: `export` declarations (default ones with a name too),
 * `export { local }` of a declaration in the file, and CommonJS `exports.x =` / `module.exports = { x }`.
 */
export function jsSymbols(root: Node): FoundSymbol[] {
  const out: FoundSymbol[] = [];
  const locals = new Map<string, { kind: SymbolKind; at: Node }>();
  const pendingNames: Array<{ local: string; exported: string }> = [];
  for (const top of kids(root)) {
    if (top.type === 'export_statement') {
      const decl = top.childForFieldName('declaration') ?? kids(top).find((c) => DECL_KIND[c.type]);
      if (decl) {
        for (const d of declared(decl)) out.push({ name: d.name, kind: d.kind, line: lineOf(d.at) });
        continue;
      }
      // `export { a, b as c }` without a source re-exports locals; with one it re-exports another module's.
      if (top.childForFieldName('source')) continue;
      const clause = kids(top).find((c) => c.type === 'export_clause');
      for (const spec of clause ? kids(clause) : []) {
        const local = spec.childForFieldName('name')?.text;
        const alias = spec.childForFieldName('alias')?.text;
        if (local) pendingNames.push({ local, exported: alias ?? local });
      }
      continue;
    }
    for (const d of declared(top)) if (!locals.has(d.name)) locals.set(d.name, { kind: d.kind, at: d.at });
    if (top.type === 'expression_statement') commonJs(top, locals, pendingNames, out);
  }
  for (const p of pendingNames) {
    const l = locals.get(p.local);
    if (l) out.push({ name: p.exported, kind: l.kind, line: lineOf(l.at) });
  }
  return out;
}

function commonJs(
  stmt: Node,
  locals: Map<string, { kind: SymbolKind; at: Node }>,
  pending: Array<{ local: string; exported: string }>,
  out: FoundSymbol[],
): void {
  const expr = kids(stmt)[0];
  if (expr?.type !== 'assignment_expression') return;
  const left = expr.childForFieldName('left');
  const right = expr.childForFieldName('right');
  if (left?.type !== 'member_expression' || !right) return;
  const target = left.text.replace(/\s+/g, '');
  const prop = left.childForFieldName('property');
  if (target === 'module.exports' && right.type === 'object') {
    for (const p of kids(right)) {
      if (p.type === 'shorthand_property_identifier') pending.push({ local: p.text, exported: p.text });
      else if (p.type === 'pair') {
        const key = p.childForFieldName('key');
        const value = p.childForFieldName('value');
        if (!key || !value) continue;
        if (value.type === 'identifier') pending.push({ local: value.text, exported: key.text });
        else out.push({ name: key.text, kind: valueKind(value), line: lineOf(key) });
      } else if (p.type === 'method_definition') {
        const key = p.childForFieldName('name');
        if (key) out.push({ name: key.text, kind: 'function', line: lineOf(key) });
      }
    }
    return;
  }
  const obj = left.childForFieldName('object')?.text.replace(/\s+/g, '');
  if (prop && (obj === 'exports' || obj === 'module.exports')) {
    if (right.type === 'identifier' && locals.has(right.text))
      pending.push({ local: right.text, exported: prop.text });
    else out.push({ name: prop.text, kind: valueKind(right), line: lineOf(prop) });
  }
}

const TEST_CALLS = new Set(['test', 'it']);
const SUITE_CALLS = new Set(['describe', 'suite', 'context']);

/** `test.only`, `it.skip`, `describe.each(...)`'s base name, or the identifier itself. */
function callName(fn: Node | null): string | undefined {
  if (!fn) return undefined;
  if (fn.type === 'identifier') return fn.text;
  if (fn.type === 'member_expression') return callName(fn.childForFieldName('object'));
  if (fn.type === 'call_expression') return callName(fn.childForFieldName('function'));
  return undefined;
}

/** The test framework a file imports (`vitest`, `node:test`, `@jest/globals`); jest-style globals otherwise. */
function frameworkOf(root: Node): string {
  for (const top of kids(root)) {
    if (top.type !== 'import_statement') continue;
    const src = stringValue(top.childForFieldName('source'));
    if (src === 'vitest') return 'vitest';
    if (src === 'node:test') return 'node:test';
    if (src === 'mocha') return 'mocha';
  }
  return 'jest';
}

/** `test(...)`/`it(...)` calls with a literal name, inside `describe(...)` suites, walked without recursion. */
export function jsTests(root: Node): FoundTest[] {
  const framework = frameworkOf(root);
  const out: FoundTest[] = [];
  const stack: Array<{ node: Node; suite: string[] }> = [{ node: root, suite: [] }];
  while (stack.length > 0) {
    const { node, suite } = stack.pop()!;
    let inner = suite;
    if (node.type === 'call_expression') {
      const name = callName(node.childForFieldName('function'));
      const args = node.childForFieldName('arguments');
      const first = args ? kids(args)[0] : undefined;
      const title = stringValue(first);
      if (name && title !== undefined && first) {
        if (TEST_CALLS.has(name))
          out.push({ name: [...suite, title].join(' > '), line: lineOf(first), framework });
        else if (SUITE_CALLS.has(name)) inner = [...suite, title];
      }
    }
    const children = kids(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, suite: inner });
  }
  return out;
}

/** True for a path of a test file: `*.test.*`, `*.spec.*` or anything under `__tests__/`. */
export function isJsTestFile(path: string): boolean {
  return /\.(test|spec)\.[cm]?[jt]sx?$/.test(path) || path.includes('__tests__/');
}

export function extractJs(root: Node, path: string): Extracted {
  // A test file's declarations are test helpers, not the module's interface: it yields tests only.
  return isJsTestFile(path) ? { symbols: [], tests: jsTests(root) } : { symbols: jsSymbols(root), tests: [] };
}
