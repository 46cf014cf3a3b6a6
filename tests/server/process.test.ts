// The service as a real process: what an operator sees when starting and stopping it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPgliteDataDir } from "../support/pgliteDataDir.js";
import { freePort, runEntry, runNode, ROOT, type ChildRun } from "../support/process.js";

interface PackageJson {
  engines: { node: string };
}

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "memo-proc-"));
});
afterAll(async () => rm(cwd, { recursive: true, force: true }));

/** A new data folder whose embedded database is already initialized (saves the service's initdb). */
async function seededDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(cwd, "data-"));
  await seedPgliteDataDir(dataDir);
  return dataDir;
}

/**
 * Starts the service on a free port in its own data folder and waits until it listens. The folder
 * is empty, or with `seeded` holds an initialized database, for tests that are not about first start.
 */
async function start(
  entry: string,
  env: Record<string, string> = {},
  { seeded = false } = {},
): Promise<{ run: ChildRun; base: string; dataDir: string }> {
  const port = await freePort();
  const dataDir = seeded ? await seededDataDir() : await mkdtemp(path.join(cwd, "data-"));
  const run = runEntry(entry, { cwd, env: { PORT: String(port), DATA_DIR: dataDir, ...env } });
  await run.waitFor(/memo listening/);
  return { run, base: `http://127.0.0.1:${port}`, dataDir };
}

describe("starting the service", () => {
  it("with no environment at all: listens, answers /healthz and /readyz, creates DATA_DIR, exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const run = runEntry("src/index.ts", { cwd, env: { PORT: String(port) } });
    await run.waitFor(/memo listening/);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    // The default DATA_DIR is ./data, relative to where the service was started.
    expect((await stat(path.join(cwd, "data", "pglite"))).isDirectory()).toBe(true);
    // Logs are JSON lines.
    const firstLine = run.stdout().split("\n")[0]!;
    expect(JSON.parse(firstLine)).toMatchObject({ service: "memo" });
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    // A fresh embedded database migrates on first start: on a loaded 2-core CI machine that alone
    // has taken over 20 s (9–10 s when the suite is not running beside it).
  }, 60_000);

  it("exits non-zero within 15 s with one line naming an unreachable database", async () => {
    const started = Date.now();
    const run = runEntry("src/index.ts", { cwd, env: { DATABASE_URL: "postgresql://nobody@127.0.0.1:1/x" } });
    expect(await run.exited).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    const lines = run.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^memo: cannot start: Cannot reach database postgresql:\/\/nobody@127\.0\.0\.1:1\/x: /,
    );
    expect(run.stderr()).not.toMatch(/\n\s+at /);
  });

  it("exits with a message naming PORT when it is malformed", async () => {
    const run = runEntry("src/index.ts", { cwd, env: { PORT: "eighty" } });
    expect(await run.exited).toBe(1);
    expect(run.stderr().trim()).toBe(
      "memo: Invalid configuration: PORT must be a whole number from 1 to 65535",
    );
  });

  it("in production, exits naming every missing production setting", async () => {
    const run = runEntry("src/index.ts", { cwd, env: { NODE_ENV: "production" } });
    expect(await run.exited).toBe(1);
    for (const name of ["DATABASE_URL", "WHATSAPP_APP_SECRET", "WHATSAPP_ACCESS_TOKEN", "OPENAI_API_KEY"]) {
      expect(run.stderr()).toContain(name);
    }
  });

  it("reads .env from the working directory, with the real environment taking precedence", async () => {
    const dir = await mkdtemp(path.join(cwd, "envfile-"));
    await writeFile(path.join(dir, ".env"), "PORT=not-a-port\nCHECKPOINTER=bogus\n");
    const run = runEntry("src/index.ts", { cwd: dir, env: { PORT: "3999" } });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain("CHECKPOINTER");
    expect(run.stderr()).not.toContain("PORT");
  });
});

describe("graceful shutdown", () => {
  it("lets a slow request finish after SIGTERM, refuses new connections, then exits 0", async () => {
    const { run, base } = await start("tests/fixtures/slowService.ts", {}, { seeded: true });
    const slow = fetch(`${base}/slow?ms=1500`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await run.waitFor(/slow request started/);
    run.child.kill("SIGTERM");
    await run.waitFor(/shutting down/);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    expect(await slow).toEqual({ status: 200, body: { finished: true, ms: 1500 } });
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/"clean":true/);
  });

  it("stops waiting after SHUTDOWN_TIMEOUT_MS and exits 1", async () => {
    const { run, base } = await start(
      "tests/fixtures/slowService.ts",
      { SHUTDOWN_TIMEOUT_MS: "300" },
      { seeded: true },
    );
    const slow = fetch(`${base}/slow?ms=10000`).catch((e: unknown) => e);
    await run.waitFor(/slow request started/);
    const sent = Date.now();
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(1);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(run.stdout()).toMatch(/shutdown timed out/);
    expect(await slow).toBeInstanceOf(Error);
  });
});

describe("npm start", () => {
  it("builds dist/ when needed and runs the built service", async () => {
    const port = await freePort();
    const dataDir = await seededDataDir();
    const run = runNode([path.join(ROOT, "scripts/start.mjs")], {
      cwd,
      env: { PORT: String(port), DATA_DIR: dataDir },
    });
    await run.waitFor(/memo listening/, 60_000);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect((await stat(path.join(ROOT, "dist", "index.js"))).isFile()).toBe(true);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
  }, 90_000);

  /** Asserts that `start.mjs` refused with its one sentence for Node `version`. */
  async function expectRefused(run: ChildRun, version: string): Promise<void> {
    expect(await run.exited).toBe(1);
    const lines = run.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^memo: Memo needs Node\.js 22\.12 or newer \(24 LTS recommended; .*\)/);
    expect(lines[0]).toContain(`this is Node.js ${version}.`);
    expect(run.stdout()).toBe("");
  }

  it("on a Node older than package.json's engines, stops at once with one sentence naming the version it needs", async () => {
    const engines = (JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as PackageJson)
      .engines.node;
    expect(engines).toBe(">=22.12");
    for (const version of ["20.20.2", "22.11.0"]) {
      const asOlder = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
      await expectRefused(
        runNode(["--import", asOlder, path.join(ROOT, "scripts/start.mjs")], { cwd }),
        version,
      );
    }
  });

  // The machines' own Node is 20: the same refusal, from the real thing, where it is installed.
  const systemNode = "/usr/bin/node";
  const systemVersion = existsSync(systemNode)
    ? execFileSync(systemNode, ["--version"], { encoding: "utf8" }).trim().slice(1)
    : "";
  it.skipIf(!systemVersion || Number(systemVersion.split(".")[0]) >= 22)(
    `on the system's Node ${systemVersion || "(none)"}, refuses the same way`,
    async () => {
      const child = runNode([path.join(ROOT, "scripts/start.mjs")], { cwd, execPath: systemNode });
      await expectRefused(child, systemVersion);
    },
  );
});
