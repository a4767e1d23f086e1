/**
 * A local stand-in for supermemory's API, serving what the `supermemory` SDK
 * calls for the `supermemory` adapter (paths from the SDK's src/resources/*):
 * GET /v3/settings, POST /v3/documents, GET /v3/documents/{id}, POST /v4/search
 * and DELETE /v3/documents/bulk. "Memory extraction" makes one memory per line of
 * a document once the document is done, which takes `pendingPolls` reads.
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

export interface SupermemoryDocument {
  id: string;
  containerTag: string;
  customId: string;
  content: string;
  metadata: Record<string, unknown>;
  pollsLeft: number;
  status: "queued" | "done";
}

export interface SupermemoryServer extends RemoteServer {
  readonly documents: SupermemoryDocument[];
  pendingPolls: number;
}

const ID = /^[A-Za-z0-9._-]{1,100}$/;

export async function startSupermemoryServer(apiKey: string): Promise<SupermemoryServer> {
  const documents: SupermemoryDocument[] = [];
  const state = { pendingPolls: 1, next: 0 };
  const server = await startRemoteServer({
    authorization: `Bearer ${apiKey}`,
    unauthorised: () => ({ status: 401, body: { error: "Unauthorized", details: "invalid API key" } }),
    routes: [
      { method: "GET", pattern: /^\/v3\/settings$/, handler: () => ({ status: 200, body: {} }) },
      {
        method: "POST",
        pattern: /^\/v3\/documents$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["content", "containerTag", "customId", "metadata", "entityContext"], "document");
          const containerTag = string(body.containerTag, "containerTag");
          const customId = string(body.customId, "customId");
          if (!ID.test(containerTag)) throw new BadRequest(`containerTag ${containerTag} is not allowed`);
          if (!ID.test(customId)) throw new BadRequest(`customId ${customId} is not allowed`);
          const metadata = object(body.metadata ?? {}, "metadata");
          for (const [key, value] of Object.entries(metadata)) {
            const scalar = ["string", "number", "boolean"].includes(typeof value);
            const strings = Array.isArray(value) && value.every((v) => typeof v === "string");
            if (!scalar && !strings) throw new BadRequest(`metadata.${key} must be a scalar or a list of strings`);
          }
          const doc: SupermemoryDocument = {
            id: `doc-${++state.next}`,
            containerTag,
            customId,
            content: string(body.content, "content"),
            metadata,
            pollsLeft: state.pendingPolls,
            status: "queued",
          };
          documents.push(doc);
          return { status: 200, body: { id: doc.id, status: doc.status } };
        },
      },
      {
        method: "GET",
        pattern: /^\/v3\/documents\/([^/]+)$/,
        handler: (_req, [id]) => {
          const doc = documents.find((d) => d.id === id);
          if (!doc) return { status: 404, body: { error: "Not found" } };
          if (doc.status === "queued" && doc.pollsLeft-- <= 0) doc.status = "done";
          return {
            status: 200,
            body: { id: doc.id, status: doc.status, customId: doc.customId, metadata: doc.metadata },
          };
        },
      },
      {
        method: "POST",
        pattern: /^\/v4\/search$/,
        handler: (req) => {
          const body = object(req.body, "body");
          onlyKeys(body, ["q", "containerTag", "limit", "searchMode", "include", "rerank", "threshold"], "search");
          const q = string(body.q, "q");
          const tag = string(body.containerTag, "containerTag");
          const limit = integer(body.limit, "limit");
          const include = object(body.include ?? {}, "include");
          const results = documents
            .filter((d) => d.containerTag === tag && d.status === "done")
            .flatMap((d) =>
              d.content
                .split("\n")
                .filter((line) => !line.startsWith("Conversation date:"))
                .map((line, i) => ({ d, line, i })),
            )
            .map((x) => ({ ...x, similarity: overlap(q, x.line) }))
            .filter((x) => x.similarity > 0)
            .sort((a, b) => b.similarity - a.similarity)
            .slice(0, limit)
            .map(({ d, line, i, similarity }) => ({
              id: `${d.id}-m${i}`,
              memory: line,
              similarity,
              metadata: null,
              updatedAt: "2026-01-01T00:00:00Z",
              ...(include.documents === true
                ? {
                    documents: [
                      {
                        id: d.id,
                        createdAt: "2026-01-01T00:00:00Z",
                        updatedAt: "2026-01-01T00:00:00Z",
                        metadata: d.metadata,
                      },
                    ],
                  }
                : {}),
            }));
          return { status: 200, body: { results, timing: 1, total: results.length } };
        },
      },
      {
        method: "DELETE",
        pattern: /^\/v3\/documents\/bulk$/,
        handler: (req) => {
          const body = object(req.body, "body");
          const ids = array(body.ids, "ids").map((id, i) => string(id, `ids[${i}]`));
          if (ids.length > 100) throw new BadRequest("at most 100 ids");
          let deletedCount = 0;
          for (let i = documents.length - 1; i >= 0; i--) {
            if (ids.includes(documents[i]!.id)) {
              documents.splice(i, 1);
              deletedCount++;
            }
          }
          return { status: 200, body: { success: true, deletedCount } };
        },
      },
    ],
  });
  Object.defineProperties(server, {
    documents: { value: documents },
    pendingPolls: {
      get: () => state.pendingPolls,
      set: (n: number) => {
        state.pendingPolls = n;
      },
    },
  });
  return server as SupermemoryServer;
}
