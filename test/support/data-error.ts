/** Assertions on the DataError a loader rejects with. */
import assert from "node:assert/strict";
import { DataError } from "../../src/core/errors.ts";

/** Where a DataError should point, and what its message should say. */
export interface ExpectedDataError {
  file: string;
  record?: string;
  field?: string;
  message: RegExp;
}

/** The DataError `promise` rejects with; fails when it resolves or rejects with anything else. */
export async function dataError(promise: Promise<unknown>): Promise<DataError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DataError, `expected a DataError, got ${String(error)}`);
    return error;
  }
  return assert.fail("expected a DataError");
}

/**
 * Fails unless `promise` rejects with a DataError at exactly `where`: the
 * file, the record and the field (absent when not given), and a message that
 * matches.
 */
export async function rejectsAt(promise: Promise<unknown>, where: ExpectedDataError): Promise<void> {
  const error = await dataError(promise);
  assert.equal(error.file, where.file);
  assert.equal(error.record, where.record);
  assert.equal(error.field, where.field);
  assert.match(error.message, where.message);
}

/**
 * Fails unless `promise` rejects with a DataError for `expected.file`, at its
 * record and field where given, with a message that matches and names the file.
 */
export async function rejectsWith(promise: Promise<unknown>, expected: ExpectedDataError): Promise<void> {
  const error = await dataError(promise);
  assert.equal(error.file, expected.file);
  if (expected.record) assert.equal(error.record, expected.record);
  if (expected.field) assert.equal(error.field, expected.field);
  assert.match(error.message, expected.message);
  assert.ok(error.message.includes(expected.file), "the message names the file");
}
