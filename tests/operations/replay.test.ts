// `npm run replay` (issue #10): a developer re-runs a user's stored messages against the current
// graph and reads the old and new replies. Seeded by real turns through the started service's
// webhook; the replay runs as a real process against the same database.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { startService, type RunningService } from "../../src/app/server.js";
import { signBody } from "../../src/transport/whatsapp/signature.js";
import { phoneTag } from "../../src/utils/phone.js";
import { createPostgresDatabase, testDatabaseUrl } from "../support/db.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { FakeLangSmith } from "../support/fakeLangSmith.js";
import { captureLogs } from "../support/logs.js";
import { isPlanner } from "../support/memoHarness.js";
import { freePort, runEntry } from "../support/process.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  ACCESS_TOKEN,
  APP_SECRET,
  GENERAL_PLAN,
  PHONE_NUMBER_ID,
  textMessage,
  VERIFY_TOKEN,
  webhookBody,
} from "../support/whatsappHarness.js";

const PHONE = "972501230001";
const STRANGER = "972501239999";
const REMIND = "remind me tomorrow at 9 to call mom";
const TASKS = "my tasks";
const QUESTION = "What is the capital of France?";
/** A replay is a process that loads the graph and makes an in-memory database: seconds, more on a busy machine. */
const REPLAY_TIMEOUT_MS = 60_000;

let dir: string;
let llm: ScriptedOpenAI;
let graphApi: FakeGraphApi;
let langsmith: FakeLangSmith;
let database: { url: string; drop: () => Promise<void> } | undefined;
/** When each seeded message was sent (WhatsApp's whole seconds). */
const sentAt: number[] = [];
/** What the service answered each seeded message. */
const answers: string[] = [];
/** The service's tag of PHONE (its key, from the database). */
let tag: string;
/** A connection to the seeded Postgres database, to fingerprint it. */
let sourcePool: pg.Pool | undefined;
const fingerprint = () => fingerprintOf(sourcePool ?? null);

/** The environment of the service and of the replay: the same database, the scripted LLM. */
function environment(): Record<string, string> {
  return {
    NODE_ENV: "test",
    DATA_DIR: dir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    OPENAI_BASE_URL: llm.baseUrl,
    LLM_MAX_RETRIES: "0",
    LLM_TIMEOUT_MS: "5000",
    MEMORY_MODE: "rules",
    EMBEDDINGS_MODEL: "off",
  };
}

/** Every file of the embedded database, or every row of every table of Postgres, hashed. */
async function fingerprintOf(pool: pg.Pool | null): Promise<string> {
  const hash = createHash("sha256");
  if (pool) {
    const { rows } = await pool.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    for (const { name } of rows) {
      const { rows: dump } = await pool.query<{ d: string | null }>(
        `SELECT string_agg(t::text, '|' ORDER BY t::text) AS d FROM "${name}" t`,
      );
      hash.update(`${name}:${dump[0]?.d ?? ""}\n`);
    }
  } else {
    const files = (await readdir(path.join(dir, "pglite"), { recursive: true, withFileTypes: true }))
      .filter((f) => f.isFile())
      .map((f) => path.join(f.parentPath, f.name))
      .sort();
    for (const file of files) hash.update(file).update(await readFile(file));
  }
  return hash.digest("hex");
}

/** Runs `npm run replay -- <args>` as a process; resolves with its exit code and output. */
async function replay(args: string[], env: Record<string, string> = {}) {
  const run = runEntry("scripts/replay.ts", { cwd: dir, args, env: { ...environment(), ...env } });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "memo-replay-test-"));
  [llm, graphApi, langsmith] = await Promise.all([
    ScriptedOpenAI.start(),
    FakeGraphApi.start({ accessToken: ACCESS_TOKEN }),
    FakeLangSmith.start(),
  ]);
  database = testDatabaseUrl ? await createPostgresDatabase(testDatabaseUrl, "memo_replay") : undefined;
  const config = loadConfig({
    ...environment(),
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graphApi.baseUrl,
    WHATSAPP_SIMULATOR: "off",
    SCHEDULER: "off",
  });
  const service: RunningService = await startService(config, {
    logger: captureLogs().logger,
    whatsapp: { transcriber: null, worker: { pollIntervalMs: 50, retryDelayMs: () => 10 } },
  });
  try {
    for (const phone of [PHONE, STRANGER]) {
      await service.users.getOrCreate(phone, { timeZone: "Asia/Jerusalem", language: "en" });
      await service.users.recordInbound(phone, new Date());
    }
    llm.on(isPlanner, { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), { text: "Paris, as it always was." });
    /** The user writes `text`; resolves once Memo's answer went out. */
    const say = async (phone: string, text: string) => {
      const before = graphApi.textsTo(phone).length;
      const at = Date.now();
      const raw = JSON.stringify(webhookBody([{ messages: [textMessage(phone, text, at)] }]));
      const res = await fetch(`${service.url}/webhook/whatsapp`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signBody(raw, APP_SECRET) },
        body: raw,
      });
      expect(res.status).toBe(200);
      await vi.waitFor(() => expect(graphApi.textsTo(phone).length).toBeGreaterThan(before), {
        timeout: 10_000,
        interval: 20,
      });
      // A second apart: WhatsApp's timestamps are whole seconds.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
      return { at: Math.floor(at / 1000) * 1000, answer: graphApi.textsTo(phone).at(-1)! };
    };
    for (const text of [REMIND, TASKS, QUESTION]) {
      const { at, answer } = await say(PHONE, text);
      sentAt.push(at);
      answers.push(answer);
    }
    // Someone else's task, which no replay of PHONE may see.
    await say(STRANGER, "remind me tomorrow at 8 to water the stranger's plants");
    tag = phoneTag(PHONE);
  } finally {
    await service.shutdown("seeded");
  }
  sourcePool = database ? new pg.Pool({ connectionString: database.url, max: 1 }) : undefined;
}, 60_000);

afterAll(async () => {
  await sourcePool?.end();
  await Promise.all([llm?.close(), graphApi?.close(), langsmith?.close()]);
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("npm run replay", () => {
  it(
    "re-runs the user's messages in order, prints old and new replies, sends nothing and writes nothing to the database",
    async () => {
      expect(answers[1]).toContain("call mom");
      expect(answers[2]).toBe("Paris, as it always was.");
      const before = await fingerprint();
      const sends = graphApi.requests.length;
      // The current model answers the question differently.
      llm.reset();
      llm.on(isPlanner, { json: GENERAL_PLAN });
      llm.on((req) => !isPlanner(req), { text: "Paris, on the Seine." });

      const { code, stdout, stderr } = await replay(["--phone", `+${PHONE}`], {
        LANGSMITH_TRACING: "true",
        LANGSMITH_API_KEY: "test-key",
        LANGSMITH_ENDPOINT: langsmith.url,
      });
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toContain(`3 messages since ${new Date(sentAt[0]!).toISOString()}`);
      const blocks = stdout.split(/\n(?=\[\d\/3\])/).slice(1);
      expect(blocks).toHaveLength(3);
      // Each message at its time, with the user's words, the old reply and the new one.
      for (const [i, text] of [REMIND, TASKS, QUESTION].entries()) {
        expect(blocks[i]).toContain(new Date(sentAt[i]!).toISOString());
        expect(blocks[i]).toContain(`user  ${text}`);
        expect(blocks[i]).toContain(`old   ${answers[i]!.split("\n")[0]}`);
      }
      // The reminder is made again in the scratch copy (it did not exist yet), so the list shows it.
      expect(blocks[0]).toContain(`new   ${answers[0]!.split("\n")[0]}`);
      expect(blocks[0]).toContain("unchanged");
      expect(blocks[1]).toContain("call mom");
      expect(blocks[1]).toContain("unchanged");
      expect(blocks[1]).not.toContain("stranger");
      expect(blocks[2]).toContain("new   Paris, on the Seine.");
      expect(blocks[2]).toMatch(/\n\s+changed/);
      expect(stdout).toContain("Summary: 3 replayed: 1 changed, 2 unchanged.");
      // The model was asked, with the question.
      expect(llm.requests.some((r) => JSON.stringify(r.body.messages).includes(QUESTION))).toBe(true);

      // Nothing was sent to WhatsApp; the database is as it was.
      expect(graphApi.requests).toHaveLength(sends);
      expect(await fingerprint()).toBe(before);

      // With tracing on, the replay is a LangSmith thread of its own, marked as a replay.
      const roots = langsmith.roots().filter((r) => r.name === "memo-turn");
      expect(roots).toHaveLength(3);
      const threads = new Set(roots.map((r) => r.extra?.metadata?.thread_id));
      expect(threads.size).toBe(1);
      const [thread] = threads;
      expect(thread).toMatch(new RegExp(`^replay-${tag}-\\d{8}T\\d{6}Z$`));
      expect(stdout).toContain(
        `this replay is thread ${String(thread)}; the user's own thread is user-${tag}`,
      );
      for (const root of roots) expect(root.extra?.metadata).toMatchObject({ replay: true, trigger: "user" });
      for (const secret of [PHONE, "call mom", "Seine"]) expect(langsmith.bodies()).not.toContain(secret);
    },
    REPLAY_TIMEOUT_MS,
  );

  it(
    "with --since, replays from then on on top of the data and conversation from before",
    async () => {
      llm.reset();
      llm.on(isPlanner, { json: GENERAL_PLAN });
      llm.on((req) => !isPlanner(req), { text: "Paris, as it always was." });
      const since = new Date(sentAt[1]!).toISOString();
      const { code, stdout } = await replay(["--phone", PHONE, "--since", since]);
      expect(code).toBe(0);
      expect(stdout).toContain(`2 messages since ${since}`);
      expect(stdout).toMatch(/Scratch copy of the user's data before then: .*tasks 1/);
      const blocks = stdout.split(/\n(?=\[\d\/2\])/).slice(1);
      expect(blocks[0]).toContain(`user  ${TASKS}`);
      // The reminder made before --since was copied: the list is the same as then.
      expect(blocks[0]).toContain("call mom");
      expect(stdout).toContain("Summary: 2 replayed: 0 changed, 2 unchanged.");
    },
    REPLAY_TIMEOUT_MS,
  );

  it(
    "refuses an unknown user, a bad phone and a bad date with one line and exit code 2",
    async () => {
      const [unknown, phone, date] = await Promise.all([
        replay(["--phone", "972509999999"]),
        replay(["--phone", "not-a-phone"]),
        replay(["--phone", PHONE, "--since", "last tuesday"]),
      ]);
      expect(unknown).toMatchObject({
        code: 2,
        stderr: "replay: no user with that phone number in the database: 972509999999\n",
      });
      expect(phone).toMatchObject({ code: 2, stderr: "replay: --phone: not a phone number: not-a-phone\n" });
      expect(date.code).toBe(2);
      expect(date.stderr).toBe(
        "replay: --since: not an ISO date (e.g. 2026-03-01 or 2026-03-01T08:00:00Z): last tuesday\n",
      );
      for (const run of [unknown, phone, date]) expect(run.stdout).toBe("");
    },
    REPLAY_TIMEOUT_MS,
  );
});
