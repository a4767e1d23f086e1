import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";

/** Base for wrappers: forwards identity so a wrapped model still says which endpoint it is. */
export abstract class DelegatingChatModel implements ChatModel {
  constructor(protected readonly inner: ChatModel) {}
  get id(): string {
    return this.inner.id;
  }
  get model(): string {
    return this.inner.model;
  }
  get baseUrl(): string | undefined {
    return this.inner.baseUrl;
  }
  get supportsJsonSchema(): boolean | undefined {
    return this.inner.supportsJsonSchema;
  }
  abstract chat(req: ChatRequest): Promise<ChatResult>;
  forget(req: ChatRequest): void {
    this.inner.forget?.(req);
  }
}
