/** Legacy spellings that still load; `save` rewrites them to the current names. */

export interface LegacyRename {
  path: Array<string | number>;
  from: string;
  to: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function rename(o: Obj, from: string, to: string, at: Array<string | number>, out: LegacyRename[]): void {
  if (!(from in o)) return;
  if (!(to in o)) o[to] = o[from];
  delete o[from];
  out.push({ path: at, from, to });
}

function eachObj(
  list: unknown,
  at: Array<string | number>,
  fn: (o: Obj, at: Array<string | number>) => void,
): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => {
    if (isObj(item)) fn(item, [...at, i]);
  });
}

/** Renames legacy keys in place on plain data and reports where; used on load (data) and save (document). */
export function findLegacyKeys(root: unknown): LegacyRename[] {
  const out: LegacyRename[] = [];
  if (!isObj(root)) return out;
  const prompt = (o: Obj, at: Array<string | number>) =>
    rename(o, 'agent_prompt', 'agent_instructions', at, out);
  const components = (o: Obj, at: Array<string | number>) => {
    prompt(o, at);
  };
  prompt(root, []);
  eachObj(root.components, ['components'], components);
  eachObj(root.paths, ['paths'], components);
  if (isObj(root.workspace)) {
    const ws = root.workspace;
    prompt(ws, ['workspace']);
    eachObj(ws.projects, ['workspace', 'projects'], (p, pAt) => {
      prompt(p, pAt);
      eachObj(p.repos, [...pAt, 'repos'], (r, rAt) => {
        prompt(r, rAt);
        eachObj(r.components, [...rAt, 'components'], components);
      });
    });
  }
  if (isObj(root.graph)) {
    eachObj(root.graph.relationships, ['graph', 'relationships'], (rel, at) => {
      rename(rel, 'from_endpoint', 'from', at, out);
      rename(rel, 'to_endpoint', 'to', at, out);
    });
  }
  return out;
}
