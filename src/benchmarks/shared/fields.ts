/**
 * Typed access to fields of untrusted records. Each getter names the field it
 * could not read, so loaders never hand-roll `typeof` checks.
 */
import { DataError } from "../../core/errors.ts";

export type Rec = Record<string, unknown>;

export interface FieldWhere {
  file: string;
  record: string;
}

export function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown, where: FieldWhere, field = "(root)"): Rec {
  if (!isRecord(value)) throw new DataError(`expected an object, got ${describe(value)}`, { ...where, field });
  return value;
}

export function asArray(value: unknown, where: FieldWhere, field: string): unknown[] {
  if (!Array.isArray(value)) throw new DataError(`expected an array, got ${describe(value)}`, { ...where, field });
  return value;
}

export function reqString(rec: Rec, field: string, where: FieldWhere): string {
  const v = rec[field];
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  throw new DataError(v === undefined ? "missing" : `expected a string, got ${describe(v)}`, { ...where, field });
}

export function optString(rec: Rec, field: string, where: FieldWhere): string | undefined {
  const v = rec[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new DataError(`expected a string, got ${describe(v)}`, { ...where, field });
}

export function reqArray(rec: Rec, field: string, where: FieldWhere): unknown[] {
  const v = rec[field];
  if (v === undefined) throw new DataError("missing", { ...where, field });
  return asArray(v, where, field);
}

export function optArray(rec: Rec, field: string, where: FieldWhere): unknown[] {
  const v = rec[field];
  if (v === undefined || v === null) return [];
  return asArray(v, where, field);
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
