/**
 * A local stand-in for Zep Cloud (API v2), serving what `@getzep/zep-cloud`'s
 * ZepClient calls for the `zep` adapter (paths from the SDK's api/resources/*
 * clients, JSON in Zep's snake_case): GET projects/info, POST users, DELETE
 * users/{id}, POST threads, POST threads/{id}/messages, GET threads/{id}/messages,
 * POST graph/search and GET graph/episodes/{uuid}. "Graph building" turns each
 * message into one episode and one fact edge once it is processed, which takes
 * `pendingPolls` reads of the thread, so a missing flush shows.
 */
import {
  array,
  BadRequest,
  integer,
  isoDate,
  object,
  onlyKeys,
  optionalString,
  overlap,
  type RemoteServer,
  startRemoteServer,
  string,
} from "./remote-server.ts";

export interface ZepStoredMessage {
  uuid: string;
  threadId: string;
  role: string;
  name?: string;
  content: string;
  createdAt?: string;
  metadata: Record<string, unknown>;
  pollsLeft: number;
  processed: boolean;
}

export interface ZepServer extends RemoteServer {
  readonly users: Set<string>;
  readonly threads: Map<string, string>;
  readonly messages: ZepStoredMessage[];
  pendingPolls: number;
}

const ROLES = ["norole", "system", "assistant", "user", "function", "tool"];

export async function startZepServer(apiKey: string): Promise<ZepServer> {
  const users = new Set<string>();
  const threads = new Map<string, string>(); // thread id → user id
  const messages: ZepStoredMessage[] = [];
  const state = { pendingPolls: 1, next: 0 };
  const edgeOf = (m: ZepStoredMessage, score: number) => ({
    uuid: `edge-${m.uuid}`,
    fact: m.name ? `${m.name}: ${m.content}` : m.content,
    name: "SAID",
    created_at: "2026-01-01T00:00:00Z",
    ...(m.createdAt ? { valid_at: m.createdAt } : {}),
    episodes: [`ep-${m.uuid}`],
    source_node_uuid: "node-a",
    target_node_uuid: "node-b",
    score,
  });
  const server = await startRemoteServer({
    authorization: `Api-Key ${apiKey}`,
    unauthorised: () => ({ status: 401, body: { message: "unauthorized" } }),
    routes: [
      {
        method: "GET",
        pattern: /^\/api\/v2\/projects\/info$/,
        handler: () => ({ status: 200, body: { project: { uuid: "proj-local", name: "local project" } } }),
      },
      {
        method: "POST",
        pattern: /^\/api\/v2\/users$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["user_id", "metadata", "email", "first_name", "last_name"], "user");
          const id = string(body.user_id, "user_id");
          if (users.has(id)) throw new BadRequest(`user ${id} already exists`);
          users.add(id);
          return { status: 201, body: { user_id: id, uuid: `u-${id}` } };
        },
      },
      {
        method: "DELETE",
        pattern: /^\/api\/v2\/users\/([^/]+)$/,
        handler: (_req, [id]) => {
          if (!users.delete(id!)) return { status: 404, body: { message: "not found" } };
          for (const [thread, user] of threads) if (user === id) threads.delete(thread);
          for (let i = messages.length - 1; i >= 0; i--) if (!threads.has(messages[i]!.threadId)) messages.splice(i, 1);
          return { status: 200, body: { message: "deleted" } };
        },
      },
      {
        method: "POST",
        pattern: /^\/api\/v2\/threads$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["thread_id", "user_id"], "thread");
          const threadId = string(body.thread_id, "thread_id");
          const userId = string(body.user_id, "user_id");
          if (!users.has(userId)) return { status: 404, body: { message: `no user ${userId}` } };
          threads.set(threadId, userId);
          return { status: 201, body: { thread_id: threadId, user_id: userId, uuid: `t-${threadId}` } };
        },
      },
      {
        method: "POST",
        pattern: /^\/api\/v2\/threads\/([^/]+)\/messages$/,
        handler: (req, [threadId]) => {
          if (!threads.has(threadId!)) return { status: 404, body: { message: "no thread" } };
          const body = object(req.body, "body");
          onlyKeys(body, ["messages", "ignore_roles", "return_context"], "add messages");
          const list = array(body.messages, "messages");
          if (list.length === 0 || list.length > 30) throw new BadRequest("between 1 and 30 messages per call");
          const uuids: string[] = [];
          for (const [i, raw] of list.entries()) {
            const m = object(raw, `messages[${i}]`);
            onlyKeys(m, ["role", "content", "name", "created_at", "metadata"], `messages[${i}]`);
            if (!ROLES.includes(String(m.role))) throw new BadRequest(`messages[${i}].role ${String(m.role)}`);
            const metadata = object(m.metadata ?? {}, `messages[${i}].metadata`);
            if (Object.keys(metadata).length > 10) throw new BadRequest("metadata: at most 10 keys");
            const uuid = `m-${++state.next}`;
            const name = optionalString(m.name, `messages[${i}].name`);
            messages.push({
              uuid,
              threadId: threadId!,
              role: String(m.role),
              content: string(m.content, `messages[${i}].content`),
              ...(name ? { name } : {}),
              ...(m.created_at !== undefined ? { createdAt: isoDate(m.created_at, `messages[${i}].created_at`) } : {}),
              metadata,
              pollsLeft: state.pendingPolls,
              processed: false,
            });
            uuids.push(uuid);
          }
          return { status: 200, body: { message_uuids: uuids } };
        },
      },
      {
        method: "GET",
        pattern: /^\/api\/v2\/threads\/([^/]+)\/messages$/,
        handler: (req, [threadId]) => {
          if (!threads.has(threadId!)) return { status: 404, body: { message: "no thread" } };
          const lastn = integer(Number(req.query.get("lastn")), "lastn");
          const own = messages.filter((m) => m.threadId === threadId).slice(-lastn);
          for (const m of own) if (!m.processed && m.pollsLeft-- <= 0) m.processed = true;
          return {
            status: 200,
            body: {
              messages: own.map((m) => ({ uuid: m.uuid, role: m.role, content: m.content, processed: m.processed })),
              total_count: own.length,
            },
          };
        },
      },
      {
        method: "POST",
        pattern: /^\/api\/v2\/graph\/search$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["user_id", "query", "limit", "scope", "reranker"], "graph search");
          const userId = string(body.user_id, "user_id");
          const query = string(body.query, "query");
          const limit = integer(body.limit, "limit");
          if (limit < 1 || limit > 50) throw new BadRequest("limit must be 1..50");
          if (body.scope !== "edges") throw new BadRequest("scope must be edges");
          const edges = messages
            .filter((m) => m.processed && threads.get(m.threadId) === userId)
            .map((m) => ({ m, score: overlap(query, m.content) }))
            .filter((x) => x.score > 0)
            .sort((a, b) => b.score - a.score)
            .slice(0, limit)
            .map(({ m, score }) => edgeOf(m, score));
          return { status: 200, body: { edges } };
        },
      },
      {
        method: "GET",
        pattern: /^\/api\/v2\/graph\/episodes\/ep-([^/]+)$/,
        handler: (_req, [uuid]) => {
          const m = messages.find((x) => x.uuid === uuid);
          if (!m) return { status: 404, body: { message: "no episode" } };
          return {
            status: 200,
            body: {
              uuid: `ep-${m.uuid}`,
              content: m.content,
              created_at: m.createdAt ?? "2026-01-01T00:00:00Z",
              thread_id: m.threadId,
              metadata: m.metadata,
              processed: m.processed,
            },
          };
        },
      },
    ],
  });
  Object.defineProperties(server, {
    users: { value: users },
    threads: { value: threads },
    messages: { value: messages },
    pendingPolls: {
      get: () => state.pendingPolls,
      set: (n: number) => {
        state.pendingPolls = n;
      },
    },
  });
  return server as ZepServer;
}
