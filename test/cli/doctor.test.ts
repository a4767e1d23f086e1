/**
 * `membench doctor` names why a configured endpoint cannot be used: the
 * connection refused, a host that does not resolve, a TLS failure, the key
 * refused (401). Real sockets on 127.0.0.1; the bin exits 1 and says the cause.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { endpointCause } from "../../src/cli/commands/doctor.ts";
import { checkEndpoint } from "../../src/llm/create.ts";
import { membenchBin } from "../support/bin.ts";

async function causeOf(baseUrl: string, apiKey?: string): Promise<string> {
  const check = await checkEndpoint(baseUrl, apiKey, 5000);
  assert.ok(check.error, `${baseUrl} should fail`);
  return endpointCause(check.error, check.status);
}

describe("doctor: the cause of an unreachable endpoint", () => {
  let server: Server;
  let port: number;
  before(async () => {
    // An endpoint that wants a key: 401 without the right one, a models list with it.
    server = createServer((req, res) => {
      if (req.headers.authorization !== "Bearer right") {
        res.writeHead(401, { "content-type": "application/json" });
        res.end('{"error":{"message":"Incorrect API key provided"}}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data":[{"id":"m"}]}');
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    port = (server.address() as { port: number }).port;
  });
  after(() => server.close());

  it("connection refused", async () => {
    // A port that was just free: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
    const closed = (probe.address() as { port: number }).port;
    await new Promise((done) => probe.close(done));
    assert.match(await causeOf(`http://127.0.0.1:${closed}/v1`), /^connection refused/);
  });

  it("DNS: a host name that does not resolve", async () => {
    assert.match(await causeOf("http://no-such-host.invalid/v1"), /^DNS: /);
  });

  it("TLS: https to a server that speaks plain HTTP", async () => {
    assert.match(await causeOf(`https://127.0.0.1:${port}/v1`), /^TLS: /);
  });

  it("401: the key was refused, and which variables hold it", async () => {
    const cause = await causeOf(`http://127.0.0.1:${port}/v1`, "wrong");
    assert.match(cause, /key was refused \(HTTP 401\).*MEMBENCH_API_KEY/);
    const ok = await checkEndpoint(`http://127.0.0.1:${port}/v1`, "right", 5000);
    assert.equal(ok.error, undefined);
  });

  it("the bin exits 1 and prints the cause on the endpoint line", async () => {
    // Asynchronously: the endpoint is served by this process.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [membenchBin(), "doctor"],
        {
          cwd: mkdtempSync(join(tmpdir(), "mb-doctor-")),
          env: {
            ...process.env,
            MEMBENCH_BASE_URL: `http://127.0.0.1:${port}/v1`,
            MEMBENCH_MODEL: "m",
            MEMBENCH_API_KEY: "wrong",
          },
          encoding: "utf8",
        },
        (error, stdout, stderr) => done({ status: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^-- {4}endpoint: the key was refused \(HTTP 401\)/m);
    assert.doesNotMatch(r.stdout, /wrong/, "the key is never printed");
  });
});
