import { NotFoundError, RefusedError, UnauthorizedError, ValidationError } from '../infra/index.js';
import { scrub } from '../org/index.js';
import type { Board, BoardInfo, BoardItem, BoardTarget, ItemContent } from './board.js';
import { type BoardConnection, boardRequest } from './board-http.js';

/**
 * GitHub Projects (v2) through the GraphQL API: the project is `projectV2(number)` of the organization or user
 * `providers.github.organization`; each row is a draft issue item; its state is the project's `Status`
 * single-select field. Needs a token with the `project` scope.
 */

/** Ids asked for in one `nodes` query (GitHub's limit). */
const NODES_PER_QUERY = 100;

const OPEN = `query($login: String!, $number: Int!) {
  repositoryOwner(login: $login) {
    ... on ProjectV2Owner {
      projectV2(number: $number) {
        id
        title
        url
        field(name: "Status") {
          ... on ProjectV2SingleSelectField { id name options { id name } }
        }
      }
    }
  }
}`;

const ITEM_FIELDS = `id
      databaseId
      content {
        ... on DraftIssue { id title body }
        ... on Issue { title body url }
        ... on PullRequest { title body url }
      }
      fieldValueByName(name: "Status") {
        ... on ProjectV2ItemFieldSingleSelectValue { name optionId }
      }`;

const READ = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ProjectV2Item {
      ${ITEM_FIELDS}
    }
  }
}`;

const ADD_DRAFT = `mutation($project: ID!, $title: String!, $body: String) {
  addProjectV2DraftIssue(input: {projectId: $project, title: $title, body: $body}) {
    projectItem {
      ${ITEM_FIELDS}
    }
  }
}`;

const SET_STATUS = `mutation($project: ID!, $item: ID!, $field: ID!, $option: String!) {
  updateProjectV2ItemFieldValue(
    input: {projectId: $project, itemId: $item, fieldId: $field, value: {singleSelectOptionId: $option}}
  ) {
    projectV2Item { id }
  }
}`;

const EDIT_DRAFT = `mutation($draft: ID!, $title: String, $body: String) {
  updateProjectV2DraftIssue(input: {draftIssueId: $draft, title: $title, body: $body}) {
    draftIssue { id }
  }
}`;

interface GqlError {
  type?: string;
  message?: string;
  path?: Array<string | number>;
}

interface RawItem {
  id: string;
  databaseId?: number | null;
  content?: { id?: string; title?: string; body?: string; url?: string } | null;
  fieldValueByName?: { name?: string; optionId?: string } | null;
}

interface Project {
  id: string;
  title: string;
  url: string | null;
  fieldId: string;
  options: Array<{ id: string; name: string }>;
}

export function githubBoard(conn: BoardConnection, target: BoardTarget): Board {
  const number = Number(target.project);
  if (!/^\d+$/.test(target.project.trim()) || !Number.isSafeInteger(number) || number < 1)
    throw new ValidationError(
      `providers.github.project: '${target.project}' is not a project number (the N of github.com/orgs/${target.organization}/projects/N)`,
      { field: 'providers.github.project', value: target.project, rule: 'project_number' },
    );

  /** One GraphQL call; errors that `tolerate` accepts (unknown ids of a `nodes` query) are left to the caller. */
  const gql = async <T>(
    query: string,
    variables: Record<string, unknown>,
    tolerate: (e: GqlError) => boolean = () => false,
  ): Promise<T> => {
    if (!conn.token)
      throw new UnauthorizedError(
        `github: the GraphQL API needs a token with the project scope; set ${conn.tokenVariables.join(' or ')}`,
        { provider: 'github', rule: 'board_auth' },
      );
    const answer = (await boardRequest(conn, 'POST', conn.endpoint, {
      body: { query, variables },
      headers: { authorization: `bearer ${conn.token}` },
    })) as { data?: T | null; errors?: GqlError[] };
    const errors = (answer.errors ?? []).filter((e) => !tolerate(e));
    if (errors.length > 0) {
      const first = errors[0]!;
      const message = scrub(`github: ${first.message ?? 'GraphQL error'}`, conn.token).slice(0, 400);
      const details = { provider: 'github', type: first.type ?? null };
      if (first.type === 'NOT_FOUND')
        throw new NotFoundError(message, { ...details, rule: 'board_not_found' });
      if (first.type === 'FORBIDDEN' || first.type === 'INSUFFICIENT_SCOPES')
        throw new RefusedError(`${message} (the token needs the project scope)`, {
          ...details,
          rule: 'board_forbidden',
        });
      throw new RefusedError(message, { ...details, rule: 'board_error' });
    }
    if (!answer.data)
      throw new RefusedError('github: the GraphQL answer has no data', {
        provider: 'github',
        rule: 'board_error',
      });
    return answer.data;
  };

  let project: Project | undefined;
  const ensure = async (): Promise<Project> => {
    if (project) return project;
    const data = await gql<{
      repositoryOwner: {
        projectV2?: {
          id: string;
          title: string;
          url?: string;
          field?: { id?: string; options?: Array<{ id: string; name: string }> } | null;
        } | null;
      } | null;
    }>(OPEN, { login: target.organization, number });
    const p = data.repositoryOwner?.projectV2;
    if (!p)
      throw new NotFoundError(
        `github: no project ${number} of '${target.organization}' (check providers.github.organization and .project, and that the token can see it)`,
        { provider: 'github', rule: 'board_not_found', organization: target.organization, project: number },
      );
    if (!p.field?.id || !Array.isArray(p.field.options))
      throw new ValidationError(
        `github: project ${number} of '${target.organization}' has no single-select Status field; add one (Todo, In Progress, Done)`,
        { provider: 'github', rule: 'board_status_field' },
      );
    project = { id: p.id, title: p.title, url: p.url ?? null, fieldId: p.field.id, options: p.field.options };
    return project;
  };

  const toItem = (p: Project, raw: RawItem): BoardItem => ({
    id: raw.id,
    url:
      raw.content?.url ?? (p.url && raw.databaseId ? `${p.url}?pane=issue&itemId=${raw.databaseId}` : p.url),
    state: raw.fieldValueByName?.name ?? null,
    title: raw.content?.title ?? '',
    body: raw.content?.body ?? '',
  });

  const draftIds = new Map<string, string | undefined>();

  const setStatus = async (p: Project, item: string, state: string) => {
    const option = p.options.find((o) => o.name === state);
    if (!option)
      throw new ValidationError(`github: the Status field has no option '${state}'`, {
        provider: 'github',
        rule: 'board_state',
        value: state,
      });
    await gql(SET_STATUS, { project: p.id, item, field: p.fieldId, option: option.id });
  };

  const readItems = async (ids: readonly string[]): Promise<Map<string, BoardItem>> => {
    const p = await ensure();
    const out = new Map<string, BoardItem>();
    for (let i = 0; i < ids.length; i += NODES_PER_QUERY) {
      const chunk = ids.slice(i, i + NODES_PER_QUERY);
      const data = await gql<{ nodes: Array<RawItem | null> }>(
        READ,
        { ids: chunk },
        (e) => e.type === 'NOT_FOUND' && e.path?.[0] === 'nodes',
      );
      for (const raw of data.nodes ?? []) {
        if (!raw?.id) continue;
        draftIds.set(raw.id, raw.content?.url === undefined ? raw.content?.id : undefined);
        out.set(raw.id, toItem(p, raw));
      }
    }
    return out;
  };

  return {
    target,
    async open(): Promise<BoardInfo> {
      const p = await ensure();
      return { id: p.id, title: p.title, url: p.url, states: p.options.map((o) => ({ name: o.name })) };
    },
    read: readItems,
    async create(content: ItemContent, state: string | undefined): Promise<BoardItem> {
      const p = await ensure();
      const data = await gql<{ addProjectV2DraftIssue: { projectItem: RawItem } }>(ADD_DRAFT, {
        project: p.id,
        title: content.title,
        body: content.body,
      });
      const raw = data.addProjectV2DraftIssue.projectItem;
      draftIds.set(raw.id, raw.content?.id);
      if (state !== undefined && raw.fieldValueByName?.name !== state) {
        await setStatus(p, raw.id, state);
        return { ...toItem(p, raw), state };
      }
      return toItem(p, raw);
    },
    same: githubSame,
    async update(id, change): Promise<BoardItem> {
      const p = await ensure();
      if (change.title !== undefined || change.body !== undefined) {
        if (!draftIds.has(id)) await readItems([id]);
        const draft = draftIds.get(id);
        // An item that is a real issue or pull request keeps its own text: only its Status is hub's to set.
        if (draft) await gql(EDIT_DRAFT, { draft, title: change.title, body: change.body });
      }
      if (change.state !== undefined) await setStatus(p, id, change.state);
      const item = (await readItems([id])).get(id);
      if (!item)
        throw new NotFoundError(`github: project item ${id} is gone`, {
          provider: 'github',
          rule: 'board_not_found',
        });
      return item;
    },
  };
}

/** Whether an item already shows the content (GitHub keeps a draft's Markdown as given). */
export function githubSame(item: BoardItem, content: ItemContent): boolean {
  return item.title === content.title && item.body.trim() === content.body.trim();
}
