// A real process killed with turns in flight: after the restart, each message is answered once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBody } from "../../src/transport/whatsapp/signature.js";
import { createPostgresDatabase, testDatabaseUrl } from "../support/db.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { isPlanner } from "../support/memoHarness.js";
import { freePort, runEntry, type ChildRun } from "../support/process.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  ACCESS_TOKEN,
  APP_SECRET,
  PHONE_NUMBER_ID,
  echoLLM,
  textMessage,
  webhookBody,
} from "../support/whatsappHarness.js";

const ALICE = "972501110001";
const BOB = "972501110002";

const legs = [
  { name: "pglite", postgres: false },
  ...(testDatabaseUrl ? [{ name: "postgres", postgres: true }] : []),
];

describe.each(legs)("a killed process, restarted ($name)", ({ postgres }) => {
  let dir: string;
  let llm: ScriptedOpenAI;
  let graph: FakeGraphApi;
  let database: { url: string; drop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "memo-restart-"));
    llm = await ScriptedOpenAI.start();
    graph = await FakeGraphApi.start({ accessToken: ACCESS_TOKEN });
    database = postgres ? await createPostgresDatabase(testDatabaseUrl!, "memo_restart") : undefined;
  });
  afterAll(async () => {
    await llm.close();
    await graph.close();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(port: number): Promise<ChildRun> {
    const run = runEntry("src/index.ts", {
      cwd: dir,
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: path.join(dir, "data"),
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        WHATSAPP_GRAPH_URL: graph.baseUrl,
        OPENAI_BASE_URL: llm.baseUrl,
        // Summaries and facts by rules: the scripted replies are for the turns.
        MEMORY_MODE: "rules",
        LLM_MAX_RETRIES: "0",
        // On Postgres the killed process's leases must expire before the phones are taken over.
        INBOX_LEASE_SECONDS: "2",
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
    });
    await run.waitFor(/memo listening/);
    return run;
  }

  it("answers each unfinished message exactly once", async () => {
    const port = await freePort();
    // First life: the planner never answers, so the first turns hang mid-way.
    llm.on(isPlanner, { hang: true });
    const first = await start(port);
    const now = Date.now();
    const messages = [
      textMessage(ALICE, "alice one", now - 3000),
      textMessage(ALICE, "alice two", now - 2000),
      textMessage(BOB, "bob one", now - 1000),
    ];
    const raw = JSON.stringify(webhookBody([{ messages }]));
    const res = await fetch(`http://127.0.0.1:${port}/webhook/whatsapp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signBody(Buffer.from(raw), APP_SECRET),
      },
      body: raw,
    });
    expect(res.status).toBe(200);
    // Both phones' first turns are in the planner: kill the process there.
    await expect.poll(() => llm.requests.filter(isPlanner).length, { timeout: 15_000 }).toBe(2);
    first.child.kill("SIGKILL");
    await first.exited;

    // Second life: everything answers at once.
    llm.reset();
    echoLLM(llm);
    const second = await start(port);
    try {
      await graph.waitForSent(5, 20_000);
      // Settle, then check nothing more arrives.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const echoes = (phone: string) => graph.textsTo(phone).filter((t) => t.startsWith("echo:"));
      expect(echoes(ALICE)).toEqual(["echo: alice one", "echo: alice two"]);
      expect(echoes(BOB)).toEqual(["echo: bob one"]);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  }, 60_000);
});
