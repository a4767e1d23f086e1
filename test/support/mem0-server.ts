/**
 * A local stand-in for mem0's hosted platform, serving the endpoints `mem0ai`'s
 * MemoryClient calls for the `mem0` adapter (paths as in the SDK's dist/index.mjs,
 * shapes as in mem0's API reference): GET /v1/ping/, POST /v3/memories/add/
 * (queued: answers an event id), GET /v1/event/{id}/, POST /v3/memories/search/
 * and DELETE /v1/memories/?user_id=. "Extraction" keeps each message as one memory,
 * visible only once its event SUCCEEDED, so a missing flush shows.
 */
import {
  array,
  BadRequest,
  integer,
  object,
  onlyKeys,
  overlap,
  type RemoteServer,
  startRemoteServer,
  string,
} from "./remote-server.ts";

export interface Mem0Memory {
  id: string;
  userId: string;
  memory: string;
  metadata: Record<string, unknown>;
  timestamp?: number;
  eventId: string;
}

export interface Mem0Event {
  id: string;
  userId: string;
  /** Polls still answered PENDING before it SUCCEEDED. */
  pollsLeft: number;
  status: "PENDING" | "SUCCEEDED" | "FAILED";
}

export interface Mem0Server extends RemoteServer {
  readonly memories: Mem0Memory[];
  readonly events: Map<string, Mem0Event>;
  /** Polls a new event stays PENDING (default 1); Infinity never finishes. */
  pendingPolls: number;
}

export async function startMem0Server(apiKey: string): Promise<Mem0Server> {
  const memories: Mem0Memory[] = [];
  const events = new Map<string, Mem0Event>();
  let next = 0;
  const state = { pendingPolls: 1 };
  const server = await startRemoteServer({
    authorization: `Token ${apiKey}`,
    unauthorised: () => ({ status: 401, body: { detail: "Invalid API key" } }),
    routes: [
      {
        method: "GET",
        pattern: /^\/v1\/ping\/$/,
        handler: () => ({
          status: 200,
          body: { status: "ok", org_id: "org-local", project_id: "proj-local", user_email: "bench" },
        }),
      },
      {
        method: "POST",
        pattern: /^\/v3\/memories\/add\/$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["messages", "user_id", "metadata", "infer", "timestamp"], "add");
          const userId = string(body.user_id, "user_id");
          const messages = array(body.messages, "messages");
          if (messages.length === 0) throw new BadRequest("messages must not be empty");
          const metadata = object(body.metadata ?? {}, "metadata");
          if (body.infer !== undefined && typeof body.infer !== "boolean")
            throw new BadRequest("infer must be a boolean");
          const timestamp = body.timestamp === undefined ? undefined : integer(body.timestamp, "timestamp");
          const eventId = `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`;
          for (const [i, raw] of messages.entries()) {
            const m = object(raw, `messages[${i}]`);
            if (m.role !== "user" && m.role !== "assistant")
              throw new BadRequest(`messages[${i}].role must be user or assistant`);
            memories.push({
              id: `mem-${next}-${i}`,
              userId,
              memory: string(m.content, `messages[${i}].content`),
              metadata,
              ...(timestamp !== undefined ? { timestamp } : {}),
              eventId,
            });
          }
          events.set(eventId, { id: eventId, userId, pollsLeft: state.pendingPolls, status: "PENDING" });
          return {
            status: 200,
            body: {
              message: "Memory processing has been queued for background execution",
              status: "PENDING",
              event_id: eventId,
            },
          };
        },
      },
      {
        method: "GET",
        pattern: /^\/v1\/event\/([^/]+)\/$/,
        handler: (_req, [id]) => {
          const event = events.get(id!);
          if (!event) return { status: 404, body: { detail: "Not found." } };
          if (event.status === "PENDING" && event.pollsLeft-- <= 0) event.status = "SUCCEEDED";
          return { status: 200, body: { id: event.id, event_type: "ADD", status: event.status, results: [] } };
        },
      },
      {
        method: "POST",
        pattern: /^\/v3\/memories\/search\/$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["query", "output_format", "top_k", "filters"], "search");
          const query = string(body.query, "query");
          const topK = integer(body.top_k, "top_k");
          const filters = object(body.filters, "filters");
          const userId = string(filters.user_id, "filters.user_id");
          const results = memories
            .filter((m) => m.userId === userId && events.get(m.eventId)?.status === "SUCCEEDED")
            .map((m) => ({ m, score: overlap(query, m.memory) }))
            .filter((x) => x.score > 0)
            .sort((a, b) => b.score - a.score)
            .slice(0, topK)
            .map(({ m, score }) => ({ id: m.id, memory: m.memory, user_id: m.userId, metadata: m.metadata, score }));
          return { status: 200, body: { results } };
        },
      },
      {
        method: "DELETE",
        pattern: /^\/v1\/memories\/$/,
        handler: (req) => {
          const userId = string(req.query.get("user_id"), "user_id");
          for (let i = memories.length - 1; i >= 0; i--) if (memories[i]!.userId === userId) memories.splice(i, 1);
          return { status: 200, body: { message: "Memories deleted successfully!" } };
        },
      },
    ],
  });
  Object.defineProperties(server, {
    memories: { value: memories },
    events: { value: events },
    pendingPolls: {
      get: () => state.pendingPolls,
      set: (n: number) => {
        state.pendingPolls = n;
      },
    },
  });
  return server as Mem0Server;
}
