import type { Node } from 'web-tree-sitter';
import { type Extracted, type FoundSymbol, type FoundTest, kids, lineOf } from './extract-types.js';

/** The definition inside a decorated one, or the node itself. */
const definitionOf = (n: Node): Node | null =>
  n.type === 'decorated_definition' ? n.childForFieldName('definition') : n;

/** Names listed in a literal `__all__ = [...]`, or undefined when the module has none. */
function allNames(root: Node): Set<string> | undefined {
  for (const top of kids(root)) {
    if (top.type !== 'expression_statement') continue;
    const a = kids(top)[0];
    if (a?.type !== 'assignment' || a.childForFieldName('left')?.text !== '__all__') continue;
    const right = a.childForFieldName('right');
    if (!right || (right.type !== 'list' && right.type !== 'tuple')) return undefined;
    return new Set(
      kids(right)
        .filter((s) => s.type === 'string')
        .map((s) => s.text.replace(/^[rbuf]*['"]{1,3}|['"]{1,3}$/gi, '')),
    );
  }
  return undefined;
}

/** Module-level classes and functions: those in `__all__` when it is a literal list, else names without `_`. */
export function pySymbols(root: Node): FoundSymbol[] {
  const all = allNames(root);
  const out: FoundSymbol[] = [];
  for (const top of kids(root)) {
    const def = definitionOf(top);
    if (!def || (def.type !== 'function_definition' && def.type !== 'class_definition')) continue;
    const name = def.childForFieldName('name');
    if (!name) continue;
    const publicName = all ? all.has(name.text) : !name.text.startsWith('_');
    if (!publicName) continue;
    out.push({
      name: name.text,
      kind: def.type === 'class_definition' ? 'class' : 'function',
      line: lineOf(name),
    });
  }
  return out;
}

/** pytest's collection: `test*` functions, and `test*` methods of `Test*` classes (unittest when a TestCase). */
export function pyTests(root: Node): FoundTest[] {
  const out: FoundTest[] = [];
  for (const top of kids(root)) {
    const def = definitionOf(top);
    const name = def?.childForFieldName('name');
    if (!def || !name) continue;
    if (def.type === 'function_definition' && name.text.startsWith('test')) {
      out.push({ name: name.text, line: lineOf(name), framework: 'pytest' });
      continue;
    }
    if (def.type !== 'class_definition') continue;
    const unittest = (def.childForFieldName('superclasses')?.text ?? '').includes('TestCase');
    if (!unittest && !name.text.startsWith('Test')) continue;
    const body = def.childForFieldName('body');
    for (const m of body ? kids(body) : []) {
      const md = definitionOf(m);
      const mn = md?.type === 'function_definition' ? md.childForFieldName('name') : null;
      if (mn?.text.startsWith('test'))
        out.push({
          name: `${name.text}.${mn.text}`,
          line: lineOf(mn),
          framework: unittest ? 'unittest' : 'pytest',
        });
    }
  }
  return out;
}

/** `test_*.py`, `*_test.py`, or any Python file under a `tests/` folder. */
export function isPyTestFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.startsWith('test_') || base.endsWith('_test.py') || /(^|\/)tests?\//.test(path);
}

export function extractPy(root: Node, path: string): Extracted {
  return isPyTestFile(path) ? { symbols: [], tests: pyTests(root) } : { symbols: pySymbols(root), tests: [] };
}
