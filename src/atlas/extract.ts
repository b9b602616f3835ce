import type { Node } from 'web-tree-sitter';
import { extractGo } from './extract-go.js';
import { extractJs } from './extract-js.js';
import { extractPy } from './extract-py.js';
import { extractRust } from './extract-rust.js';
import type { Extracted } from './extract-types.js';
import type { Parsers } from './parsers.js';
import type { Language } from './sources.js';

/** Names and versions of the extractors, recorded in `generated/manifests.yaml`. */
export const EXTRACTORS = ['inventory@1.0.0', 'tree-sitter-symbols@1.0.0', 'tests-discovery@1.0.0'];

/** Symbols and tests of one source file, parsed with its language's tree-sitter grammar. */
export async function extractFile(
  parsers: Parsers,
  language: Language,
  path: string,
  text: string,
): Promise<Extracted> {
  const parser = await parsers.get(language);
  const tree = parser.parse(text);
  if (!tree) return { symbols: [], tests: [] };
  try {
    const found = byLanguage(language, tree.rootNode, path);
    // Overload signatures and repeated declarations of one name count once, at the first.
    const seen = new Set<string>();
    found.symbols = found.symbols.filter((s) => {
      const key = `${s.kind} ${s.receiver ?? ''} ${s.name}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return found;
  } finally {
    // The tree lives in WebAssembly memory: freed at once, or 2,000 files' trees pile up.
    tree.delete();
  }
}

function byLanguage(language: Language, root: Node, path: string): Extracted {
  switch (language) {
    case 'python':
      return extractPy(root, path);
    case 'go':
      return extractGo(root, path);
    case 'rust':
      return extractRust(root);
    default:
      return extractJs(root, path);
  }
}
