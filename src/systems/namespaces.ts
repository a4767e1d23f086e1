/**
 * Per-namespace state of an in-process memory system. One namespace holds one
 * episode of one run, so nothing may cross between them; touching a namespace that
 * was never opened (or was closed) is a caller bug and fails loudly.
 */
import { SystemError } from "../core/errors.ts";

export class Namespaces<S> {
  private readonly states = new Map<string, S>();

  constructor(
    private readonly systemId: string,
    private readonly create: () => S,
  ) {}

  /** Opening an open namespace keeps its data, so a repeated open is harmless. */
  open(ns: string): void {
    if (typeof ns !== "string" || ns === "") {
      throw new SystemError("a namespace must be a non-empty string", this.systemId, "open");
    }
    if (!this.states.has(ns)) this.states.set(ns, this.create());
  }

  get(ns: string, operation: string): S {
    const state = this.states.get(ns);
    if (state === undefined) {
      throw new SystemError(`namespace "${ns}" is not open; call open("${ns}") first`, this.systemId, operation);
    }
    return state;
  }

  /** Drops the namespace and everything in it; closing an unknown namespace does nothing. */
  close(ns: string): S | undefined {
    const state = this.states.get(ns);
    this.states.delete(ns);
    return state;
  }

  get size(): number {
    return this.states.size;
  }
}
