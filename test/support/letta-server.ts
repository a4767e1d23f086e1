/**
 * A local stand-in for the Letta API, serving what `@letta-ai/letta-client`
 * calls for the `letta` adapter (paths from the SDK's src/resources/agents/*):
 * GET /v1/agents/ (list), POST /v1/agents/, DELETE /v1/agents/{id},
 * POST /v1/agents/{id}/archival-memory, GET /v1/agents/{id}/archival-memory/search
 * and POST /v1/agents/{id}/messages. Its "agent" answers a message with the
 * archival passage that best matches it, as a Letta agent would after searching.
 */
import {
  array,
  BadRequest,
  integer,
  isoDate,
  object,
  onlyKeys,
  overlap,
  type RemoteServer,
  startRemoteServer,
  string,
} from "./remote-server.ts";

export interface LettaPassage {
  id: string;
  agentId: string;
  text: string;
  createdAt?: string;
  tags: string[];
}

export interface LettaServer extends RemoteServer {
  readonly agents: Map<string, { name: string; model: string; embedding: string }>;
  readonly passages: LettaPassage[];
  /** Unused: Letta embeds a passage while creating it. */
  pendingPolls: number;
}

export async function startLettaServer(apiKey: string): Promise<LettaServer> {
  const agents = new Map<string, { name: string; model: string; embedding: string }>();
  const passages: LettaPassage[] = [];
  let next = 0;
  const search = (agentId: string, query: string, topK: number) =>
    passages
      .filter((p) => p.agentId === agentId)
      .map((p) => ({ p, score: overlap(query, p.text) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, topK)
      .map(({ p }) => p);
  const agentOf = (id: string) => {
    if (!agents.has(id)) throw new BadRequest(`agent ${id} not found`, 404);
    return id;
  };
  const server = await startRemoteServer({
    authorization: `Bearer ${apiKey}`,
    unauthorised: () => ({ status: 401, body: { detail: "Unauthorized" } }),
    routes: [
      {
        method: "GET",
        pattern: /^\/v1\/agents\/$/,
        handler: (req) => {
          integer(Number(req.query.get("limit")), "limit");
          return { status: 200, body: [] };
        },
      },
      {
        method: "POST",
        pattern: /^\/v1\/agents\/$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["name", "model", "embedding", "memory_blocks", "tags"], "agent");
          const blocks = array(body.memory_blocks, "memory_blocks").map((b, i) => object(b, `memory_blocks[${i}]`));
          for (const [i, b] of blocks.entries()) {
            string(b.label, `memory_blocks[${i}].label`);
            if (typeof b.value !== "string") throw new BadRequest(`memory_blocks[${i}].value must be a string`);
          }
          const id = `agent-00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`;
          agents.set(id, {
            name: string(body.name, "name"),
            model: string(body.model, "model"),
            embedding: string(body.embedding, "embedding"),
          });
          return { status: 200, body: { id, name: body.name, tags: body.tags ?? [] } };
        },
      },
      {
        method: "DELETE",
        pattern: /^\/v1\/agents\/([^/]+)$/,
        handler: (_req, [id]) => {
          agentOf(id!);
          agents.delete(id!);
          for (let i = passages.length - 1; i >= 0; i--) if (passages[i]!.agentId === id) passages.splice(i, 1);
          return { status: 200, body: {} };
        },
      },
      {
        method: "POST",
        pattern: /^\/v1\/agents\/([^/]+)\/archival-memory$/,
        handler: (req, [id]) => {
          const agentId = agentOf(id!);
          const body = object(req.body, "body");
          onlyKeys(body, ["text", "created_at", "tags"], "passage");
          const tags = array(body.tags ?? [], "tags").map((t, i) => string(t, `tags[${i}]`));
          const passage: LettaPassage = {
            id: `passage-${++next}`,
            agentId,
            text: string(body.text, "text"),
            ...(body.created_at !== undefined ? { createdAt: isoDate(body.created_at, "created_at") } : {}),
            tags,
          };
          passages.push(passage);
          return {
            status: 200,
            body: [
              {
                id: passage.id,
                text: passage.text,
                created_at: passage.createdAt ?? null,
                tags,
                embedding: null,
                embedding_config: null,
              },
            ],
          };
        },
      },
      {
        method: "GET",
        pattern: /^\/v1\/agents\/([^/]+)\/archival-memory\/search$/,
        handler: (req, [id]) => {
          const agentId = agentOf(id!);
          const query = string(req.query.get("query"), "query");
          const topK = integer(Number(req.query.get("top_k")), "top_k");
          const results = search(agentId, query, topK).map((p) => ({
            id: p.id,
            content: p.text,
            timestamp: p.createdAt ?? "",
            tags: p.tags,
          }));
          return { status: 200, body: { count: results.length, results } };
        },
      },
      {
        method: "POST",
        pattern: /^\/v1\/agents\/([^/]+)\/messages$/,
        handler: (req, [id]) => {
          const agentId = agentOf(id!);
          const body = object(req.body, "body");
          onlyKeys(body, ["messages"], "messages request");
          const [message] = array(body.messages, "messages").map((m, i) => object(m, `messages[${i}]`));
          if (message?.role !== "user") throw new BadRequest("one user message expected");
          const [best] = search(agentId, string(message.content, "messages[0].content"), 1);
          return {
            status: 200,
            body: {
              messages: [
                { id: "m1", message_type: "reasoning_message", reasoning: "Searching archival memory.", date: "" },
                {
                  id: "m2",
                  message_type: "assistant_message",
                  content: best ? `From memory: ${best.text}` : "I don't know.",
                  date: "",
                },
              ],
              stop_reason: { message_type: "stop_reason", stop_reason: "end_turn" },
              usage: { message_type: "usage_statistics", total_tokens: 0 },
            },
          };
        },
      },
    ],
  });
  Object.defineProperties(server, {
    agents: { value: agents },
    passages: { value: passages },
    pendingPolls: { value: 0, writable: true },
  });
  return server as LettaServer;
}
