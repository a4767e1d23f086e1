/**
 * The one logger. Everything goes to stderr so stdout stays clean for results
 * and can be piped. Levels: error < warn < info < debug.
 */
export type LogLevel = "error" | "warn" | "info" | "debug";
const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface LoggerOptions {
  level: LogLevel;
  json: boolean;
}

const state: LoggerOptions = { level: "info", json: false };

export function configureLogger(options: Partial<LoggerOptions>): void {
  Object.assign(state, options);
}

function emit(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] > ORDER[state.level]) return;
  if (state.json) {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
    return;
  }
  const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : "";
  const prefix = level === "info" ? "" : `${level}: `;
  process.stderr.write(`${prefix}${message}${extra}\n`);
}

export const log = {
  error: (message: string, fields?: Record<string, unknown>) => emit("error", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => emit("warn", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => emit("info", message, fields),
  debug: (message: string, fields?: Record<string, unknown>) => emit("debug", message, fields),
  get level(): LogLevel {
    return state.level;
  },
};
