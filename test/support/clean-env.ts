/**
 * Removes model and embedder settings from the environment, so a test never
 * reaches a developer's real endpoint. Import it first in tests that run stages.
 */
for (const key of Object.keys(process.env)) {
  if (/^(MEMBENCH_|OPENAI_)/.test(key)) delete process.env[key];
}
export const cleanEnv = true;
