/**
 * Namespaces of a hosted adapter: each open namespace maps to one remote object
 * (user, container, agent) with a name unique to this instance. A namespace opened
 * again after close gets a fresh name, so it starts empty even when the old object
 * was kept for inspection (`--keep-remote`).
 */
import { SystemError } from "../../core/errors.ts";
import { instanceTag, remoteName } from "./ids.ts";

export class RemoteSpaces<S> {
  private readonly states = new Map<string, S>();
  private readonly generations = new Map<string, number>();
  /** Random part of every remote name this instance makes. */
  readonly tag = instanceTag();

  constructor(
    private readonly systemId: string,
    private readonly prefix: string,
    private readonly maxNameLength = 100,
  ) {}

  /** The remote name for `ns` at its current generation. */
  nameFor(ns: string): string {
    if (typeof ns !== "string" || ns === "") {
      throw new SystemError("a namespace must be a non-empty string", this.systemId, "open");
    }
    const generation = this.generations.get(ns) ?? 0;
    return remoteName(this.prefix, this.tag, generation ? `${ns}~${generation}` : ns, this.maxNameLength);
  }

  has(ns: string): boolean {
    return this.states.has(ns);
  }

  set(ns: string, state: S): void {
    this.states.set(ns, state);
  }

  get(ns: string, operation: string): S {
    const state = this.states.get(ns);
    if (state === undefined) {
      throw new SystemError(`namespace "${ns}" is not open; call open("${ns}") first`, this.systemId, operation);
    }
    return state;
  }

  /** Forgets `ns`; the next open makes a new remote object. */
  drop(ns: string): S | undefined {
    const state = this.states.get(ns);
    this.states.delete(ns);
    if (state !== undefined) this.generations.set(ns, (this.generations.get(ns) ?? 0) + 1);
    return state;
  }

  entries(): IterableIterator<[string, S]> {
    return this.states.entries();
  }
}

/** The limit a search may ask of a service that caps its results: asking more would be cut silently. */
export function checkedLimit(k: number, max: number, systemId: string, what: string): number {
  if (k > max) {
    throw new SystemError(
      `k = ${k} is above the ${max} ${what} the service returns per search; ` +
        "a larger k would be cut silently, so lower the protocol's k",
      systemId,
      "search",
    );
  }
  return k;
}
