import { NotFoundError, RefusedError, UnauthorizedError } from '../infra/index.js';
import type { Board, BoardInfo, BoardItem, BoardTarget, ItemContent } from './board.js';
import { type BoardConnection, boardRequest } from './board-http.js';

/**
 * Azure Boards through the work item tracking REST API (7.1): each row is a `Task` work item of project
 * `providers.azure.project` in organization `providers.azure.organization` (Task exists in every process
 * template: Basic, Agile, Scrum, CMMI); its state is System.State, read through the state's category so any
 * process maps. Writes are JSON Patch documents. The token is a personal access token sent as Basic auth.
 */

export const AZURE_API_VERSION = '7.1';
/** The work item type each row becomes. */
export const AZURE_WORK_ITEM_TYPE = 'Task';
/** Ids asked for in one read (the API's limit). */
const IDS_PER_READ = 200;
const FIELDS = ['System.Id', 'System.Title', 'System.State', 'System.Description'];

interface RawWorkItem {
  id: number;
  fields?: Record<string, unknown>;
  _links?: { html?: { href?: string } };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as the HTML Azure keeps in System.Description: escaped, one line per `<br>`. */
export function azureHtml(text: string): string {
  return text.split('\n').map(escapeHtml).join('<br>');
}

export function azureBoard(conn: BoardConnection, target: BoardTarget): Board {
  const seg = encodeURIComponent;
  const base = `${conn.endpoint}/${seg(target.organization)}/${seg(target.project)}/_apis/wit`;
  const api = (path: string, query = '') =>
    `${base}${path}?${query}${query ? '&' : ''}api-version=${AZURE_API_VERSION}`;
  const auth = () => {
    if (!conn.token)
      throw new UnauthorizedError(
        `azure: Azure Boards needs a personal access token (Work Items: read & write); set ${conn.tokenVariables.join(' or ')}`,
        { provider: 'azure', rule: 'board_auth' },
      );
    return { authorization: `Basic ${Buffer.from(`:${conn.token}`).toString('base64')}` };
  };
  const itemUrl = (id: number) =>
    `${conn.endpoint}/${seg(target.organization)}/${seg(target.project)}/_workitems/edit/${id}`;
  const toItem = (raw: RawWorkItem): BoardItem => {
    const f = raw.fields ?? {};
    return {
      id: String(raw.id),
      url: raw._links?.html?.href ?? itemUrl(raw.id),
      state: typeof f['System.State'] === 'string' ? (f['System.State'] as string) : null,
      title: typeof f['System.Title'] === 'string' ? (f['System.Title'] as string) : '',
      body: typeof f['System.Description'] === 'string' ? (f['System.Description'] as string) : '',
    };
  };
  const numericId = (id: string): number => {
    if (!/^\d{1,12}$/.test(id))
      throw new NotFoundError(`azure: '${id}' is not a work item id`, {
        provider: 'azure',
        rule: 'board_not_found',
        value: id,
      });
    return Number(id);
  };
  const patch = (ops: unknown[], method: 'POST' | 'PATCH', url: string) =>
    boardRequest(conn, method, url, {
      body: ops,
      contentType: 'application/json-patch+json',
      headers: auth(),
    }) as Promise<RawWorkItem>;

  const update = async (
    id: string,
    change: Partial<ItemContent> & { state?: string },
  ): Promise<BoardItem> => {
    const ops: unknown[] = [];
    if (change.title !== undefined)
      ops.push({ op: 'add', path: '/fields/System.Title', value: change.title });
    if (change.body !== undefined)
      ops.push({ op: 'add', path: '/fields/System.Description', value: azureHtml(change.body) });
    if (change.state !== undefined)
      ops.push({ op: 'add', path: '/fields/System.State', value: change.state });
    const url = api(`/workitems/${numericId(id)}`);
    if (ops.length === 0) return (await read([id])).get(id) ?? notFound(id);
    return toItem(await patch(ops, 'PATCH', url));
  };

  const notFound = (id: string): never => {
    throw new NotFoundError(`azure: work item ${id} is gone`, { provider: 'azure', rule: 'board_not_found' });
  };

  const read = async (ids: readonly string[]): Promise<Map<string, BoardItem>> => {
    const out = new Map<string, BoardItem>();
    const numeric = ids.filter((id) => /^\d{1,12}$/.test(id));
    for (let i = 0; i < numeric.length; i += IDS_PER_READ) {
      const chunk = numeric.slice(i, i + IDS_PER_READ);
      const answer = (await boardRequest(
        conn,
        'GET',
        api('/workitems', `ids=${chunk.join(',')}&fields=${FIELDS.join(',')}&errorPolicy=Omit`),
        { headers: auth() },
      )) as { value?: Array<RawWorkItem | null> };
      for (const raw of answer.value ?? [])
        if (raw && typeof raw.id === 'number') out.set(String(raw.id), toItem(raw));
    }
    return out;
  };

  return {
    target,
    async open(): Promise<BoardInfo> {
      const answer = (await boardRequest(conn, 'GET', api(`/workitemtypes/${AZURE_WORK_ITEM_TYPE}/states`), {
        headers: auth(),
      })) as { value?: Array<{ name?: unknown; category?: unknown }> };
      const states = (answer.value ?? []).flatMap((s) =>
        typeof s.name === 'string'
          ? [{ name: s.name, ...(typeof s.category === 'string' ? { category: s.category } : {}) }]
          : [],
      );
      if (states.length === 0)
        throw new RefusedError(
          `azure: the ${AZURE_WORK_ITEM_TYPE} work item type of ${target.project} has no states`,
          {
            provider: 'azure',
            rule: 'board_error',
          },
        );
      return {
        id: target.project,
        title: `${target.organization}/${target.project}`,
        url: `${conn.endpoint}/${seg(target.organization)}/${seg(target.project)}/_boards`,
        states,
      };
    },
    read,
    async create(content, state, parent): Promise<BoardItem> {
      const ops: unknown[] = [
        { op: 'add', path: '/fields/System.Title', value: content.title },
        { op: 'add', path: '/fields/System.Description', value: azureHtml(content.body) },
        { op: 'add', path: '/fields/System.Tags', value: 'hub-campaign' },
      ];
      if (parent !== undefined && /^\d{1,12}$/.test(parent))
        ops.push({
          op: 'add',
          path: '/relations/-',
          value: {
            rel: 'System.LinkTypes.Hierarchy-Reverse',
            url: `${conn.endpoint}/${seg(target.organization)}/_apis/wit/workItems/${parent}`,
          },
        });
      const made = toItem(await patch(ops, 'POST', api(`/workitems/$${AZURE_WORK_ITEM_TYPE}`)));
      // A new work item starts in its type's first state; moving it is a second write.
      if (state !== undefined && made.state !== state) return update(made.id, { state });
      return made;
    },
    same(item, content) {
      return item.title === content.title && item.body === azureHtml(content.body);
    },
    update,
  };
}
