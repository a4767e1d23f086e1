/**
 * How the MemConflict modules report problems: `issue` is the LoadContext's
 * strict-or-lenient path; `warn` is for known data oddities the loader
 * tolerates in both modes (the result is still correct, but a user running
 * `data inspect` should see them).
 */
import type { DataErrorWhere } from "../../core/errors.ts";
import type { LoadContext } from "../shared/context.ts";

export interface Reporter {
  issue(message: string, where: DataErrorWhere): void;
  warn(message: string, where: DataErrorWhere): void;
}

export function reporterFor(ctx: LoadContext): Reporter {
  return {
    issue: (message, where) => ctx.issue(message, where),
    warn: (message, where) => ctx.warn(message, where),
  };
}
