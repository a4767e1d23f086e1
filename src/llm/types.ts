/**
 * The model contract every stage talks to. Wrappers (cache, retry, limits, accounting)
 * implement the same interface, so a stage never knows which of them are in place.
 */

export type ModelRole = "answerer" | "judge" | "extractor" | "retriever" | "generator";

export const MODEL_ROLES: readonly ModelRole[] = ["answerer", "judge", "extractor", "retriever", "generator"];

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ResponseFormat {
  name: string;
  /** A JSON schema for the reply. */
  schema: object;
}

export interface ChatRequest {
  role: ModelRole;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Sample index: `--judge-runs 3` makes samples 0, 1, 2, each its own cache key. Never sent to the server. */
  sample?: number;
  responseFormat?: ResponseFormat;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResult {
  text: string;
  usage: TokenUsage;
  latencyMs: number;
  /** True when served from the cache: no call was made. */
  cached: boolean;
  /** The model that answered, as the server names it. */
  model: string;
}

export interface ChatModel {
  /** e.g. `openai:gpt-4o-mini@https://host/v1` or `scripted:judge-a`. */
  readonly id: string;
  readonly model: string;
  readonly baseUrl?: string;
  /** Whether `responseFormat` may be sent as a JSON-schema response format; unset means yes. */
  readonly supportsJsonSchema?: boolean;
  chat(req: ChatRequest): Promise<ChatResult>;
  /**
   * Drops any stored reply to `req` (a cache in the stack), so the next identical
   * call asks the endpoint again: a reply that proved unusable must not be
   * served forever. Optional: a model without a cache has nothing to drop.
   */
  forget?(req: ChatRequest): void;
}
