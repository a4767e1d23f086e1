/**
 * Field access on one object nested deep inside a persona line, so that every
 * DataError names the full path (`Full_Session_Chain[3].Session_Questions[1].answer`)
 * and not only the leaf the shared getters know about.
 */
import { DataError } from "../../core/errors.ts";
import { describe, isRecord, type Rec } from "../shared/fields.ts";

export interface Where {
  file: string;
  record: string;
}

export class Item {
  private constructor(
    readonly rec: Rec,
    readonly path: string,
    readonly where: Where,
  ) {}

  /** `value` as an object at `path`, or a DataError naming `path`. */
  static of(value: unknown, path: string, where: Where): Item {
    if (!isRecord(value)) {
      throw new DataError(`expected an object, got ${describe(value)}`, { ...where, field: path || "(root)" });
    }
    return new Item(value, path, where);
  }

  field(name: string): string {
    return this.path ? `${this.path}.${name}` : name;
  }

  fail(name: string, message: string): never {
    throw new DataError(message, { ...this.where, field: this.field(name) });
  }

  /** A required field of any JSON type (values may be strings, numbers, booleans, objects). */
  has(name: string): unknown {
    if (!(name in this.rec) || this.rec[name] === undefined) this.fail(name, "missing");
    return this.rec[name];
  }

  str(name: string): string {
    const v = this.rec[name];
    if (typeof v === "string") return v;
    if (typeof v === "number") return String(v);
    return this.fail(name, v === undefined ? "missing" : `expected a string, got ${describe(v)}`);
  }

  /** A required string that is not blank. */
  text(name: string): string {
    const v = this.str(name);
    if (!v.trim()) this.fail(name, "empty");
    return v;
  }

  optStr(name: string): string | undefined {
    const v = this.rec[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
    return this.fail(name, `expected a string, got ${describe(v)}`);
  }

  optInt(name: string): number | undefined {
    const v = this.rec[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "number" && Number.isInteger(v)) return v;
    return this.fail(name, `expected an integer, got ${describe(v)}`);
  }

  list(name: string): unknown[] {
    const v = this.rec[name];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.fail(name, `expected an array, got ${describe(v)}`);
    return v;
  }

  reqList(name: string): unknown[] {
    this.has(name);
    return this.list(name);
  }

  /** Each element of the (optional) list `name` as an Item. */
  items(name: string): Item[] {
    return this.list(name).map((v, i) => Item.of(v, `${this.field(name)}[${i}]`, this.where));
  }
}
