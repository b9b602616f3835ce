import {
  type Component,
  type Manifest,
  type ManifestSchemas,
  manifestSchemas,
  NAME_RE,
} from './manifest-schema.js';

/** The component fields in the schema's order: zod writes its output in this order, and so does this check. */
interface ComponentShape {
  order: string[];
  keys: Set<string>;
}
let shape: ComponentShape | undefined;
const componentShape = (): ComponentShape => {
  if (!shape) {
    const order = Object.keys(manifestSchemas().ComponentSchema.shape);
    shape = { order, keys: new Set(order) };
  }
  return shape;
};
const STRINGS = new Set(['kind', 'description', 'agent_instructions']);
const STRING_LISTS = new Set(['depends_on', 'produces', 'deploys_to', 'skills']);

type Plain = Record<string, unknown>;

function plain(v: unknown): v is Plain {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype
  );
}

function stringList(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (const s of v) if (typeof s !== 'string') return false;
  return true;
}

/**
 * The component as ComponentSchema would output it, when it is one of the plain shapes this check vouches for
 * (known keys; strings and string lists); undefined for anything else (tags, commands, agent profiles, any doubt),
 * which the schema then judges.
 */
function componentOf(c: unknown, { order, keys }: ComponentShape): Component | undefined {
  if (!plain(c)) return undefined;
  for (const k of Object.keys(c)) if (!keys.has(k)) return undefined;
  if (typeof c.name !== 'string' || !NAME_RE.test(c.name)) return undefined;
  if (typeof c.path !== 'string' || c.path.length === 0) return undefined;
  const out: Plain = {};
  for (const k of order) {
    if (!Object.hasOwn(c, k)) continue;
    const v = c[k];
    if (k === 'name' || k === 'path') out[k] = v;
    else if (STRINGS.has(k)) {
      if (typeof v !== 'string') return undefined;
      out[k] = v;
    } else if (STRING_LISTS.has(k) || k === 'language') {
      if (k === 'language' && typeof v === 'string') out[k] = v;
      else if (stringList(v)) out[k] = [...v];
      else return undefined;
    } else return undefined;
  }
  return out as Component;
}

/**
 * `ManifestSchema.safeParse(data)`, with the components (most of a large manifest: 200,000 objects at 20,000
 * repositories) checked by a plain loop instead of the schema: each repo's list is set aside while the schema
 * judges the rest, then put back. The output equals the schema's own, key order included (a property test holds
 * the two together); a component the loop does not vouch for sends the whole manifest through the schema.
 */
export function parseManifestData(data: object): ReturnType<ManifestSchemas['ManifestSchema']['safeParse']> {
  const { ManifestSchema } = manifestSchemas();
  const known = componentShape();
  const aside: Array<{ repo: Plain; components: unknown; checked: Component[]; at: [number, number] }> = [];
  const restore = () => {
    for (const a of aside) a.repo.components = a.components;
  };
  const projects = (data as { workspace?: { projects?: unknown } }).workspace?.projects;
  if (Array.isArray(projects)) {
    for (let pi = 0; pi < projects.length; pi++) {
      const p = projects[pi];
      if (!plain(p) || !Array.isArray(p.repos)) continue;
      for (let ri = 0; ri < p.repos.length; ri++) {
        const r = p.repos[ri];
        if (!plain(r) || !Array.isArray(r.components)) continue;
        const checked: Component[] = [];
        for (const c of r.components) {
          const ok = componentOf(c, known);
          if (!ok) {
            restore();
            return ManifestSchema.safeParse(data);
          }
          checked.push(ok);
        }
        aside.push({ repo: r, components: r.components, checked, at: [pi, ri] });
        r.components = [];
      }
    }
  }
  const parsed = ManifestSchema.safeParse(data);
  restore();
  if (!parsed.success) return ManifestSchema.safeParse(data);
  const out = parsed.data as Manifest;
  for (const a of aside) out.workspace!.projects![a.at[0]]!.repos[a.at[1]]!.components = a.checked;
  return parsed;
}
