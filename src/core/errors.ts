/**
 * The typed errors of membench. Each carries what a user needs to act on it:
 * which file/record/field, which setting, which endpoint, which system.
 */

export interface DataErrorWhere {
  file?: string;
  record?: string;
  field?: string;
}

/** Bad input data: names the file, the record inside it and the field. */
export class DataError extends Error {
  readonly file?: string;
  readonly record?: string;
  readonly field?: string;
  constructor(message: string, where: DataErrorWhere = {}, options?: { cause?: unknown }) {
    const parts = [
      where.file ? `file ${where.file}` : "",
      where.record ? `record ${where.record}` : "",
      where.field ? `field ${where.field}` : "",
    ].filter(Boolean);
    super(parts.length ? `${parts.join(", ")}: ${message}` : message, options);
    this.name = "DataError";
    this.file = where.file;
    this.record = where.record;
    this.field = where.field;
  }
}

/** A setting that is missing or wrong; names the setting and where its value came from. */
export class ConfigError extends Error {
  readonly setting: string;
  readonly source?: string;
  constructor(message: string, setting: string, source?: string) {
    super(`${setting}${source ? ` (from ${source})` : ""}: ${message}`);
    this.name = "ConfigError";
    this.setting = setting;
    this.source = source;
  }
}

/** A model endpoint failure; says whether retrying could help. */
export class ModelError extends Error {
  readonly endpoint: string;
  readonly status?: number;
  readonly retryable: boolean;
  constructor(
    message: string,
    info: { endpoint: string; status?: number; retryable: boolean },
    options?: { cause?: unknown },
  ) {
    super(`${info.endpoint}${info.status ? ` [${info.status}]` : ""}: ${message}`, options);
    this.name = "ModelError";
    this.endpoint = info.endpoint;
    this.status = info.status;
    this.retryable = info.retryable;
  }
}

/** A memory system failed an operation. */
export class SystemError extends Error {
  readonly systemId: string;
  readonly operation: string;
  constructor(message: string, systemId: string, operation: string, options?: { cause?: unknown }) {
    super(`system ${systemId}, ${operation}: ${message}`, options);
    this.name = "SystemError";
    this.systemId = systemId;
    this.operation = operation;
  }
}
