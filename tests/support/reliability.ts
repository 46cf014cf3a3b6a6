import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { signBody } from "../../src/transport/whatsapp/signature.js";
import { createPostgresDatabase } from "./db.js";
import { FakeGraphApi, textOf, type SentMessage } from "./fakeGraphApi.js";
import { seedPgliteDataDir } from "./pgliteDataDir.js";
import { phoneIn } from "./logs.js";
import { freePort, runEntry, type ChildRun } from "./process.js";
import {
  lastUserMessageOf,
  ScriptedOpenAI,
  systemPromptOf,
  type RecordedRequest,
  type ScriptedReply,
} from "./scriptedOpenAI.js";

/**
 * The reliability suite's rig (issue #10): Memo as real processes (src/index.ts) on one real
 * Postgres database (or each on its embedded PGlite: startEmbedded), with the fake Graph API and the scripted LLM server in the test process.
 *
 *   const rig = await ReliabilityRig.start(testDatabaseUrl, "memo_rel");
 *   const a = await rig.instance("a", { SCHEDULER: "off" });
 *   await a.deliver(textMessage(PHONE, "hi", Date.now()));
 *   await a.kill();            // kill -9
 *   await a.restart();         // same port, same environment
 *   await rig.close();
 */

/*
 * Scripted turns and WhatsApp payloads. The same shapes as memoHarness's and whatsappHarness's,
 * kept here so that these files load no app code: Memo runs in the child processes, and loading
 * the graph into the test process as well would cost each file seconds for nothing.
 */

export const APP_SECRET = "reliability-app-secret";
const VERIFY_TOKEN = "reliability-verify-token";
const ACCESS_TOKEN = "reliability-access-token";
export const PHONE_NUMBER_ID = "1234567890";

/** Whether a request is the planner's, or the task resolver's (by their system prompts). */
export const isPlanner = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("You are the planner of Memo");
export const isTaskResolver = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("into a task operation");

/** One plan step, as the planner writes it. */
export function step(
  id: string,
  capability: string,
  action: string,
  extra: { constraints?: Record<string, unknown>; changes?: Record<string, unknown> } = {},
) {
  return { id, capability, action, constraints: {}, changes: {}, dependsOn: [] as string[], ...extra };
}

/** The planner's answer: confident, low risk, the steps given (overrides on top). */
export function plan(
  overrides: { steps?: ReturnType<typeof step>[]; riskLevel?: string; needsApproval?: boolean } = {},
): ScriptedReply {
  const { steps = [], ...rest } = overrides;
  return {
    json: {
      intentType: "operation",
      confidence: 0.95,
      riskLevel: "low",
      needsApproval: false,
      missingFields: [],
      clarificationQuestion: null,
      plan: steps,
      ...rest,
    },
  };
}

/** One general step: the general resolver writes the reply. */
export const GENERAL_PLAN: ScriptedReply = {
  json: {
    intentType: "conversation",
    confidence: 0.95,
    riskLevel: "low",
    needsApproval: false,
    missingFields: [],
    clarificationQuestion: null,
    plan: [step("s1", "general", "answer_question")],
  },
};

/** The general resolver's answer "echo: <the user's message>", so a reply names its message. */
export const echoReply = (req: RecordedRequest): ScriptedReply => ({ text: `echo: ${userMessageOf(req)}` });

let ids = 0;
/** A text message from `phone` sent at `at` (epoch ms), as WhatsApp writes it in `value.messages[]`. */
export function textMessage(phone: string, body: string, at: number) {
  return {
    from: phone,
    id: `wamid.REL${process.pid.toString(36)}${Date.now().toString(36)}${(++ids).toString(36)}`,
    timestamp: String(Math.floor(at / 1000)),
    type: "text",
    text: { body },
  };
}

/** A webhook body with one change carrying `value` (messages, statuses…). */
export function webhookBody(changes: Record<string, unknown>[]): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA-1",
        changes: changes.map((value) => ({
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550001111", phone_number_id: PHONE_NUMBER_ID },
            ...value,
          },
        })),
      },
    ],
  };
}

/** RELIABILITY_SCALE=full: the numbers (`npm run test:reliability`); otherwise a trimmed run for `npm test`. */
const FULL_SCALE = process.env.RELIABILITY_SCALE === "full";

/** `trimmed` in the normal run, `full` under RELIABILITY_SCALE=full. */
export const scaled = <T>(trimmed: T, full: T): T => (FULL_SCALE ? full : trimmed);

/** Log lines that mean an error escaped every handler (app/main.ts logs them instead of dying). */
const ESCAPED_ERROR = /unhandled|uncaught/i;

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true; fails with `describe()` after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string | Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${await describe()}`);
    await sleep(50);
  }
}

/**
 * The user's own words in a planner or resolver request: the "## User message" section of the
 * planner's and the operation resolvers' prompts, or what follows "Message:" in the general
 * resolver's.
 */
export function userMessageOf(req: RecordedRequest): string {
  const prompt = lastUserMessageOf(req) ?? "";
  const at = prompt.lastIndexOf("## User message\n");
  if (at < 0) {
    const general = prompt.lastIndexOf("Message:\n");
    return general < 0 ? "" : prompt.slice(general + "Message:\n".length);
  }
  const rest = prompt.slice(at + "## User message\n".length);
  const end = rest.indexOf("\n\n## ");
  return end < 0 ? rest : rest.slice(0, end);
}

/** What a POST to the webhook answered. */
export interface PostResult {
  status: number;
  text: string;
}

/** One Memo process of the rig: started, killed with SIGKILL, restarted on the same port. */
export class MemoInstance {
  private run: ChildRun | undefined;
  /** Output of every earlier life of this instance (before restarts), for the log checks. */
  private earlier = "";
  /** Every life's exit code, in order (137 for kill -9). */
  readonly exits: number[] = [];
  /** Milliseconds each life took from spawn to "memo listening". */
  readonly bootMs: number[] = [];

  constructor(
    /** "a", "b"…, in failure messages. */
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly cwd: string,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits for "memo listening". */
  async start(): Promise<this> {
    if (this.alive()) throw new Error(`instance ${this.name} is already running`);
    if (this.run) this.earlier += this.run.stdout() + this.run.stderr();
    this.run = runEntry("src/index.ts", { cwd: this.cwd, env: { ...this.env, PORT: String(this.port) } });
    void this.run.exited.then((code) => this.exits.push(code));
    const spawned = Date.now();
    await this.run.waitFor(/memo listening/, 60_000);
    this.bootMs.push(Date.now() - spawned);
    return this;
  }

  /** Whether the current life is running. */
  alive(): boolean {
    return !!this.run && this.run.child.exitCode === null && this.run.child.signalCode === null;
  }

  /** `kill -9`: no shutdown, no lease release, no hand-back of claimed reminders. */
  async kill(): Promise<void> {
    if (!this.run) return;
    this.run.child.kill("SIGKILL");
    await this.run.exited;
  }

  /** Starts a new life after kill() or stop(). */
  restart(): Promise<this> {
    return this.start();
  }

  /** SIGTERM and wait (a graceful stop; ignored when not running). */
  async stop(): Promise<void> {
    if (!this.alive()) return;
    this.run!.child.kill("SIGTERM");
    await this.run!.exited;
  }

  /** CPU seconds (user + system) the current life has used so far, from /proc (Linux); NaN elsewhere. */
  async cpuSeconds(): Promise<number> {
    try {
      const stat = await readFile(`/proc/${this.run?.child.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return Number.NaN;
    }
  }

  /** stdout and stderr of every life so far. */
  output(): string {
    return this.earlier + (this.run ? this.run.stdout() + this.run.stderr() : "");
  }

  /** Log lines of every life that say an error escaped (unhandled rejection, uncaught exception). */
  escapedErrors(): string[] {
    return this.output()
      .split("\n")
      .filter((line) => ESCAPED_ERROR.test(line));
  }

  /** JSON log lines of every life with `msg` (or `event`) equal to `what`. */
  logged(what: string): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const line of this.output().split("\n")) {
      if (!line.startsWith("{") || !line.includes(what)) continue;
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed.msg === what || parsed.event === what) out.push(parsed);
      } catch {
        // A line cut by SIGKILL.
      }
    }
    return out;
  }

  /** POSTs raw bytes (or a value, as JSON) to the webhook, signed unless `signature` says otherwise. */
  async post(
    body: unknown,
    options: { signature?: string | false; contentType?: string | false } = {},
  ): Promise<PostResult> {
    const raw = Buffer.isBuffer(body)
      ? body
      : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    const headers: Record<string, string> = {};
    if (options.contentType !== false) headers["content-type"] = options.contentType ?? "application/json";
    if (options.signature !== false)
      headers["x-hub-signature-256"] = options.signature ?? signBody(raw, APP_SECRET);
    const res = await fetch(`${this.baseUrl}/webhook/whatsapp`, { method: "POST", headers, body: raw });
    return { status: res.status, text: await res.text() };
  }

  /** Posts messages in one webhook body and expects the 200. */
  async deliver(...messages: unknown[]): Promise<void> {
    const res = await this.post(webhookBody([{ messages }]));
    if (res.status !== 200)
      throw new Error(`instance ${this.name}: webhook answered ${res.status}: ${res.text}`);
  }

  /** GET a path; its status (0 when the process does not answer). */
  async status(pathname: string): Promise<number> {
    try {
      return (await fetch(`${this.baseUrl}${pathname}`)).status;
    } catch {
      return 0;
    }
  }
}

/** One inbox row, as the assertions read it. */
export interface InboxRow {
  wa_message_id: string;
  phone: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

/**
 * The fakes, the database and the instances of one test file. The database is new and dropped by
 * close() (or, in an embedded rig, each instance has its own PGlite); each instance has its own
 * data folder and port, and the same fakes.
 */
export class ReliabilityRig {
  private readonly instances: MemoInstance[] = [];

  private constructor(
    readonly llm: ScriptedOpenAI,
    readonly graph: FakeGraphApi,
    /** The instances' shared Postgres database; null: each instance has its embedded PGlite. */
    private readonly database: { pool: pg.Pool; url: string; drop: () => Promise<void> } | null,
    private readonly dir: string,
  ) {}

  static async start(adminUrl: string, prefix: string): Promise<ReliabilityRig> {
    const [llm, graph, database, dir] = await Promise.all([
      ScriptedOpenAI.start(),
      FakeGraphApi.start({ accessToken: ACCESS_TOKEN }),
      createPostgresDatabase(adminUrl, prefix),
      mkdtemp(path.join(tmpdir(), `${prefix}-`)),
    ]);
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    // DROP DATABASE … WITH (FORCE) at the end ends idle clients: heard, not thrown.
    pool.on("error", () => undefined);
    return new ReliabilityRig(llm, graph, { pool, url: database.url, drop: database.drop }, dir);
  }

  /**
   * A rig without Postgres: each instance runs on the embedded PGlite in its own data folder
   * (seeded from the run's template). The process owns that folder, so the test reads no rows:
   * it judges by what the fake Graph API received.
   */
  static async startEmbedded(prefix: string): Promise<ReliabilityRig> {
    const [llm, graph, dir] = await Promise.all([
      ScriptedOpenAI.start(),
      FakeGraphApi.start({ accessToken: ACCESS_TOKEN }),
      mkdtemp(path.join(tmpdir(), `${prefix}-`)),
    ]);
    return new ReliabilityRig(llm, graph, null, dir);
  }

  /** The test's own connection to the instances' database (Postgres rigs only). */
  get pool(): pg.Pool {
    if (!this.database) throw new Error("an embedded rig has no shared database: judge by the Graph API");
    return this.database.pool;
  }

  /** Which database the instances use. */
  get engine(): "postgres" | "pglite" {
    return this.database ? "postgres" : "pglite";
  }

  /**
   * A new instance (not started) with the rig's environment plus `env`: real Postgres, the fakes,
   * rules for memory (scripted replies are for the turns), and 3-second inbox leases so a killed
   * instance's phones are taken over quickly.
   */
  async instance(name: string, env: Record<string, string> = {}): Promise<MemoInstance> {
    const cwd = await mkdtemp(path.join(this.dir, `${name}-`));
    const dataDir = path.join(cwd, "data");
    if (!this.database) {
      await mkdir(dataDir);
      await seedPgliteDataDir(dataDir);
    }
    const instance = new MemoInstance(
      name,
      await freePort(),
      {
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ...(this.database ? { DATABASE_URL: this.database.url } : {}),
        DATABASE_POOL_MAX: "6",
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        WHATSAPP_GRAPH_URL: this.graph.baseUrl,
        WHATSAPP_SIMULATOR: "off",
        OPENAI_BASE_URL: this.llm.baseUrl,
        MEMORY_MODE: "rules",
        INBOX_LEASE_SECONDS: "3",
        ...env,
      },
      cwd,
    );
    this.instances.push(instance);
    return instance;
  }

  /** The inbox rows of `phones` (all when omitted). */
  async inbox(phones?: string[]): Promise<InboxRow[]> {
    const { rows } = await this.pool.query<InboxRow>(
      `SELECT wa_message_id, phone, status, attempts, last_error FROM inbox_messages
        WHERE $1::text[] IS NULL OR phone = ANY($1) ORDER BY sent_at, seq`,
      [phones ?? null],
    );
    return rows;
  }

  /** Inbox rows of `phones` still waiting for a turn. */
  async pending(phones?: string[]): Promise<InboxRow[]> {
    return (await this.inbox(phones)).filter((r) => r.status === "pending");
  }

  /** The texts the fake Graph API delivered to `phone`, in order. */
  textsTo(phone: string): string[] {
    return this.graph.textsTo(phone);
  }

  /** Every delivered text, as "to: text" lines (for failure messages). */
  describeSent(phones?: string[]): string {
    return this.graph.sent
      .filter((m) => !phones || phones.includes(m.to))
      .map((m) => `${m.to}: ${JSON.stringify(textOf(m))}`)
      .join("\n");
  }

  /** Stops every instance (SIGTERM, or SIGKILL when that hangs), the fakes, and drops the database. */
  async close(): Promise<void> {
    await Promise.all(
      this.instances.map(async (instance) => {
        // A stop that hangs (a turn stuck on a hanging fake) is ended with SIGKILL.
        const timer = setTimeout(() => void instance.kill(), 15_000);
        await instance.stop();
        clearTimeout(timer);
        await instance.kill();
      }),
    );
    // Issue #20: with LOG_REDACT on (the default), no line any process wrote, in any of its lives,
    // holds a number Memo wrote to, as digits or base64 (a WhatsApp message id spells it).
    const leaks = this.instances.flatMap((instance) =>
      instance
        .output()
        .split("\n")
        .flatMap((line) =>
          [...this.graph.recipients].flatMap((phone) => {
            const form = phoneIn(line, phone);
            return form ? [`${instance.name}: ${phone} as ${form}: ${line.slice(0, 300)}`] : [];
          }),
        ),
    );
    const keep = process.env.RELIABILITY_LOGS;
    if (keep) {
      // RELIABILITY_LOGS=<folder> keeps every process's output (all its lives) for a look afterwards.
      await mkdir(keep, { recursive: true });
      for (const instance of this.instances)
        await writeFile(
          path.join(keep, `${path.basename(this.dir)}-${instance.name}.log`),
          instance.output(),
        );
    }
    await this.database?.pool.end().catch(() => undefined);
    await this.llm.close();
    await this.graph.close();
    await this.database?.drop();
    await rm(this.dir, { recursive: true, force: true });
    if (leaks.length > 0)
      throw new Error(`phone numbers in the processes' logs:\n${leaks.slice(0, 10).join("\n")}`);
  }
}

/** The options a sent message offers: its reply buttons' or list rows' titles (none for text). */
export function optionsOf(message: SentMessage): string[] {
  const interactive = (
    message.body as {
      interactive?: {
        action?: { buttons?: { reply?: { title?: string } }[]; sections?: { rows?: { title?: string }[] }[] };
      };
    }
  ).interactive;
  const buttons = interactive?.action?.buttons?.map((b) => b.reply?.title ?? "") ?? [];
  const rows = interactive?.action?.sections?.flatMap((s) => s.rows?.map((r) => r.title ?? "") ?? []) ?? [];
  return [...buttons, ...rows];
}

/** The messages the fake Graph API delivered to `phone`, in order. */
export function sentTo(graph: FakeGraphApi, phone: string): SentMessage[] {
  return graph.sent.filter((m) => m.to.replace(/\D/g, "") === phone);
}
