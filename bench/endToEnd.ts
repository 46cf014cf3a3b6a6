import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { PgListRepository } from "../src/db/repositories/listRepository.js";
import { PgUserRepository } from "../src/db/repositories/userRepository.js";
import { fastPathTurn } from "../src/graph/plan/fastPath.js";
import { signBody } from "../src/transport/whatsapp/signature.js";
import { FakeGraphApi } from "../tests/support/fakeGraphApi.js";
import { plan, step } from "../tests/support/memoHarness.js";
import { freePort, ROOT, runEntry, runNode, type ChildRun } from "../tests/support/process.js";
import { lastUserMessageOf, ScriptedOpenAI, type RecordedRequest } from "../tests/support/scriptedOpenAI.js";
import { callKind, inTurn, type CallKind } from "./llmRequests.js";
import { round } from "./measure.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";
import { percentile } from "./stats.js";
import { healthy } from "./webhookAck.js";

/** Users measured per run, each sending one message. */
const USERS = 200;
/** Every scripted LLM answer waits this long, as a real model would. */
const LLM_LATENCY_MS = 300;
/** Users whose turns warm a fresh service up (JIT, connections) before it is measured. */
const WARMUP_USERS = 20;
const SECRET = "bench-app-secret";
const TOKEN = "bench-token";
const PHONE_NUMBER_ID = "1234";
/** A run that has not answered everyone by then is reported as it stands (see `answered`). */
const RUN_TIMEOUT_MS = 120_000;
const TSX_LOADER = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
/** BENCH_CPU_PROFILE=<dir>: each service writes a V8 CPU profile there when it stops (default: none). */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE ? path.resolve(process.env.BENCH_CPU_PROFILE) : undefined;

/** How the users' messages arrive: all at once, or one every 1000/perSecond ms. */
type Arrival = { kind: "burst" } | { kind: "paced"; perSecond: number };

/** The service's settings under test. */
interface Settings {
  /** What the line calls them. */
  name: string;
  /** INBOX_CONCURRENCY: phones worked off at once. */
  inboxConcurrency: number;
  /** DATABASE_POOL_MAX: connections to Postgres. */
  poolMax: number;
}

/** The service as shipped (INBOX_CONCURRENCY and DATABASE_POOL_MAX defaults). */
const DEFAULTS: Settings = { name: "defaults", inboxConcurrency: 8, poolMax: 10 };
/**
 * What a production instance would set: a turn holds no database connection while it waits for the
 * model, so the concurrency is sized by the one core a Node.js process has (about 1000 / 25 ms =
 * 40 turns a second here) times a real turn's length (2 model calls of 1–3 s: 80–240 turns in
 * flight; 64 here, where a call takes 300 ms), not by the pool. Far more in flight only shares the
 * core among more turns.
 */
const PRODUCTION: Settings = { name: "production", inboxConcurrency: 64, poolMax: 20 };

/**
 * Each deployment (settings × instances on one Postgres) and the arrivals measured on it, in order
 * (a deployment is warmed up once). With several instances the webhook POSTs go round-robin to
 * them, as a load balancer would send them; any instance's worker may answer any message.
 */
const PLAN: [Settings, number, Arrival[]][] = [
  [DEFAULTS, 1, [{ kind: "burst" }]],
  [PRODUCTION, 1, [{ kind: "burst" }, { kind: "paced", perSecond: 5 }]],
  [PRODUCTION, 2, [{ kind: "burst" }]],
  [PRODUCTION, 3, [{ kind: "burst" }]],
];

/** Shopping items by the piece or pack: with a quantity each user's message is unique, so its calls can be told apart. */
const ITEMS = [
  ...["lemons", "avocados", "cucumbers", "tomatoes", "onions", "apples", "bananas", "oranges"],
  ...["carrots", "potatoes", "yogurts", "pitas", "loaves of bread", "cartons of milk", "packs of pasta"],
  ...["bags of rice", "jars of tahini", "bottles of olive oil", "cans of chickpeas", "boxes of tea"],
  ...["packs of butter", "bags of coffee", "tubs of hummus", "blocks of cheese", "dozen eggs"],
];

/**
 * The message user `i` sends, e.g. "add 3 lemons to my shopping list": the quantity takes it past
 * the fast path (numbers are the planner's to read), as most real requests are.
 */
function messageOf(i: number): string {
  return `add ${2 + Math.floor(i / ITEMS.length)} ${ITEMS[i % ITEMS.length]!} to my shopping list`;
}

/** Phones of run `run` (distinct per run, so every measured message is a user's one message). */
const phonesOf = (run: number, count: number, from = 0) =>
  Array.from(
    { length: count },
    (_, i) => `9725${String(run).padStart(2, "0")}${String(from + i).padStart(6, "0")}`,
  );

/** The user's own words, as the planner and resolver prompts carry them. */
export function userMessageIn(req: RecordedRequest): string {
  const text = lastUserMessageOf(req) ?? "";
  const at = text.lastIndexOf("## User message\n");
  return at < 0
    ? text
    : text
        .slice(at + "## User message\n".length)
        .split("\n\n", 1)[0]!
        .trim();
}

/**
 * The scripted model, matched by request content so every turn makes the same calls: the planner
 * picks add_list_item, the list resolver names the item from the message, the background fact
 * extraction finds nothing. Anything else gets a short text (and shows in calls_by_kind).
 */
function script(llm: ScriptedOpenAI): void {
  const after = { delayMs: LLM_LATENCY_MS };
  llm.on((req) => callKind(req) === "planner", {
    ...plan({ steps: [step("s1", "database", "add_list_item")] }),
    ...after,
  });
  llm.on(
    (req) => callKind(req) === "resolver:lists",
    (req) => {
      const item = /^add (.+) to my shopping list$/.exec(userMessageIn(req))?.[1] ?? "milk";
      return { json: { operation: "addItem", listName: "shopping", items: [item] }, ...after };
    },
  );
  llm.on((req) => callKind(req) === "memory:facts", { json: { facts: [] }, ...after });
  llm.on(() => true, { text: "OK", ...after });
}

/** A signed-ready webhook body: one text message from `phone`. */
export function webhookBody(phone: string, text: string, id: string): Buffer {
  const message = {
    from: phone,
    id,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: "text",
    text: { body: text },
  };
  const value = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: "15550001111", phone_number_id: PHONE_NUMBER_ID },
    contacts: [{ profile: { name: "Bench" }, wa_id: phone }],
    messages: [message],
  };
  return Buffer.from(
    JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA", changes: [{ field: "messages", value }] }],
    }),
  );
}

/** Returning users (time zone and language known, so no onboarding), each with a Shopping list. */
async function seedUsers(pool: pg.Pool, phones: string[]): Promise<void> {
  const users = new PgUserRepository(pool);
  const lists = new PgListRepository(pool);
  for (const phone of phones) {
    await users.getOrCreate(phone, { timeZone: "Asia/Jerusalem", language: "en", displayName: "Bench" });
    await lists.create(phone, `bench-seed-${phone}`, { name: "Shopping", items: ["bread"] });
  }
}

/** CPU seconds (user + system) the process has used, from /proc; undefined off Linux. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Transactions committed or rolled back in the pool's database so far (each statement outside one is one). */
async function transactions(pool: pg.Pool): Promise<number> {
  // Backends report their statistics about once a second; the snapshot is then re-read.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await pool.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await pool.query<{ n: string }>(
    "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  return Number(rows[0]!.n);
}

/** When each of `phones` first had a message sent to it (sends from index `from` on); stops at RUN_TIMEOUT_MS. */
async function repliesFor(graph: FakeGraphApi, phones: string[], from: number): Promise<Map<string, number>> {
  const waiting = new Set(phones);
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const replies = new Map<string, number>();
  let seen = from;
  while (Date.now() < deadline) {
    for (; seen < graph.sent.length; seen++) {
      const sent = graph.sent[seen]!;
      if (waiting.has(sent.to) && !replies.has(sent.to)) replies.set(sent.to, sent.at);
    }
    if (replies.size === waiting.size) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return replies;
}

/** Waits until the LLM server has had no new request for `quietMs` (background memory work done). */
async function settled(llm: ScriptedOpenAI, quietMs = LLM_LATENCY_MS * 3): Promise<void> {
  let count = -1;
  while (count !== llm.requests.length) {
    count = llm.requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/** Posts each phone's message, signed, per `arrival`, round-robin to `urls`; returns when each POST started (epoch ms). */
async function post(
  urls: string[],
  phones: string[],
  arrival: Arrival,
  tag: string,
): Promise<Map<string, number>> {
  const started = new Map<string, number>();
  const t0 = Date.now();
  await Promise.all(
    phones.map(async (phone, i) => {
      if (arrival.kind === "paced") {
        const due = t0 + (i * 1000) / arrival.perSecond;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      }
      const raw = webhookBody(phone, messageOf(i), `wamid.E2E${tag}-${i}`);
      started.set(phone, Date.now());
      const res = await fetch(`${urls[i % urls.length]!}/webhook/whatsapp`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signBody(raw, SECRET) },
        body: raw,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`end_to_end: the webhook answered ${res.status}`);
    }),
  );
  return started;
}

/**
 * Where a turn's time goes besides the model, per turn from its own calls (medians, ms): from the
 * POST to the planner's request, between one answer and the next request, and from the last
 * answer to the reply at the Graph API.
 */
function overheads(
  requests: RecordedRequest[],
  phones: string[],
  started: Map<string, number>,
  replies: Map<string, number>,
): Record<string, number> {
  const byMessage = new Map<string, RecordedRequest[]>();
  for (const req of requests) {
    if (!inTurn(callKind(req))) continue;
    const key = userMessageIn(req);
    byMessage.set(key, [...(byMessage.get(key) ?? []), req]);
  }
  const before: number[] = [];
  const between: number[] = [];
  const after: number[] = [];
  phones.forEach((phone, i) => {
    const calls = (byMessage.get(messageOf(i)) ?? []).sort((a, b) => a.at - b.at);
    const t0 = started.get(phone);
    const done = replies.get(phone);
    if (calls.length === 0 || t0 === undefined || done === undefined) return;
    before.push(calls[0]!.at - t0);
    for (let c = 1; c < calls.length; c++) between.push(calls[c]!.at - (calls[c - 1]!.at + LLM_LATENCY_MS));
    after.push(done - (calls.at(-1)!.at + LLM_LATENCY_MS));
  });
  const p50 = (values: number[]) => (values.length > 0 ? round(percentile(values, 50)) : null);
  return Object.fromEntries(
    Object.entries({
      post_to_first_call_p50_ms: p50(before),
      between_calls_p50_ms: p50(between),
      last_answer_to_reply_p50_ms: p50(after),
    }).filter((entry): entry is [string, number] => entry[1] !== null),
  );
}

/** What every measurement shares: the database, the scripted model and the fake Graph API. */
interface Rig {
  databaseUrl: string;
  pool: pg.Pool;
  llm: ScriptedOpenAI;
  graph: FakeGraphApi;
}

/** The real service as its own process (built from the sources) on the rig, with `settings`. */
async function startService(rig: Rig, settings: Settings) {
  const cwd = await mkdtemp(path.join(tmpdir(), "memo-bench-e2e-"));
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATA_DIR: path.join(cwd, "data"),
    DATABASE_URL: rig.databaseUrl,
    DATABASE_POOL_MAX: String(settings.poolMax),
    INBOX_CONCURRENCY: String(settings.inboxConcurrency),
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_ACCESS_TOKEN: TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: rig.graph.baseUrl,
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: rig.llm.baseUrl,
    // Notes are not searched here; embeddings would be requests the scripted server cannot answer.
    EMBEDDINGS_MODEL: "off",
  };
  const entry = path.join(ROOT, "src/index.ts");
  const run: ChildRun = PROFILE_DIR
    ? runNode(["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, "--import", TSX_LOADER, entry], { cwd, env })
    : runEntry("src/index.ts", { cwd, env });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // A profile is written only on a clean exit.
    run.child.kill(PROFILE_DIR ? "SIGTERM" : "SIGKILL");
    await run.exited;
    await rm(cwd, { recursive: true, force: true });
  };
  try {
    await healthy(url, run);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: run.child.pid, stop };
}

type Service = Awaited<ReturnType<typeof startService>>;

/** WARMUP_USERS turns at once, untimed: the JIT, connections and caches of a fresh process. */
async function warmUp(rig: Rig, services: Service[], phones: string[], tag: string): Promise<void> {
  const from = rig.graph.sent.length;
  await post(
    services.map((service) => service.url),
    phones,
    { kind: "burst" },
    tag,
  );
  await repliesFor(rig.graph, phones, from);
  await settled(rig.llm);
}

/** CPU seconds all `services` have used; undefined when one cannot be read. */
function cpuOf(services: Service[]): number | undefined {
  let total = 0;
  for (const service of services) {
    const seconds = cpuSeconds(service.pid);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

/** USERS messages per `arrival` against running services: one end_to_end line. */
async function measure(
  rig: Rig,
  services: Service[],
  settings: Settings,
  arrival: Arrival,
  phones: string[],
  tag: string,
): Promise<Record<string, unknown>> {
  const load = loadavg()[0]!;
  const firstRequest = rig.llm.requests.length;
  const firstSent = rig.graph.sent.length;
  const xactsBefore = await transactions(rig.pool);
  const cpuBefore = cpuOf(services);
  const started = await post(
    services.map((service) => service.url),
    phones,
    arrival,
    tag,
  );
  const replies = await repliesFor(rig.graph, phones, firstSent);
  const cpuAtLastReply = cpuOf(services);
  // The turns' background memory work is part of what they cost.
  await settled(rig.llm);
  const cpuAfter = cpuOf(services);
  const xactsAfter = await transactions(rig.pool);
  const requests = rig.llm.requests.slice(firstRequest);

  const turnMs = phones.flatMap((p) => {
    const t0 = started.get(p);
    const done = replies.get(p);
    return t0 !== undefined && done !== undefined ? [done - t0] : [];
  });
  if (turnMs.length === 0) throw new Error("end_to_end: no reply reached the Graph API");
  const wallS = (Math.max(...replies.values()) - Math.min(...started.values())) / 1000;
  const kinds: Partial<Record<CallKind, number>> = {};
  for (const req of requests) kinds[callKind(req)] = (kinds[callKind(req)] ?? 0) + 1;
  const callsPerTurn = round(requests.filter((req) => inTurn(callKind(req))).length / USERS);
  const idealMs = callsPerTurn * LLM_LATENCY_MS;
  const turnsPerS = replies.size / wallS;
  const p50 = percentile(turnMs, 50);
  const cpu =
    cpuBefore !== undefined && cpuAfter !== undefined && cpuAtLastReply !== undefined
      ? {
          // One Node.js thread per instance: an instance cannot finish more than 1000 / this turns a second.
          service_cpu_ms_per_turn: round(((cpuAfter - cpuBefore) * 1000) / USERS),
          // Cores the instances used while turns ran (summed): near 1 per instance means CPU-bound.
          service_cpu_busy: round((cpuAtLastReply - cpuBefore) / wallS),
        }
      : {};
  return {
    bench: "end_to_end",
    users: USERS,
    llm_latency_ms: LLM_LATENCY_MS,
    turns_per_s: round(turnsPerS),
    p50_turn_ms: round(p50),
    p99_turn_ms: round(percentile(turnMs, 99)),
    ideal_turn_ms: idealMs,
    ratio_p50_to_ideal: round(p50 / idealMs),
    arrival: arrival.kind === "burst" ? "burst" : `paced ${arrival.perSecond}/s`,
    settings: settings.name,
    instances: services.length,
    inbox_concurrency: settings.inboxConcurrency,
    database_pool_max: settings.poolMax,
    answered: replies.size,
    p90_turn_ms: round(percentile(turnMs, 90)),
    llm_calls_per_turn: callsPerTurn,
    calls_by_kind: kinds,
    // One turn at a time (full serialization) would manage 1000 / ideal turns a second.
    serialized_turns_per_s: round(1000 / idealMs),
    speedup_vs_serialized: round(turnsPerS / (1000 / idealMs)),
    // The most INBOX_CONCURRENCY allows if every turn took the ideal time.
    concurrency_cap_turns_per_s: round((settings.inboxConcurrency * 1000) / idealMs),
    ...cpu,
    db_transactions_per_turn: round((xactsAfter - xactsBefore) / USERS),
    ...overheads(requests, phones, started, replies),
    load_avg_1m: round(load),
  };
}

/**
 * End to end on the machine's Postgres: USERS returning users each send "add N <item> to my
 * shopping list" through the real webhook of the real service (its own process, signed bodies);
 * the scripted OpenAI server answers the planner, the list resolver and the background fact
 * extraction after LLM_LATENCY_MS each; a fake Graph API records when each reply arrives. Turn
 * time runs from the webhook POST to the reply at the Graph API; ideal_turn_ms is the turn's LLM
 * calls (counted from the scripted server's requests) × LLM_LATENCY_MS. One line per PLAN entry:
 * the shipped defaults with all USERS at once; production settings at once and paced; and two and
 * three production instances on the same Postgres at once (`speedup_vs_one_instance`: their
 * turns per second over one instance's in this run; they share this machine's cores with Postgres
 * and the bench's own fakes).
 */
export async function endToEnd(): Promise<Record<string, unknown>[]> {
  // Every measured message must take the LLM path; a fast-path command would make no call.
  const captured = Array.from({ length: USERS }, (_, i) => messageOf(i)).filter((text) =>
    fastPathTurn(text, Date.now(), "Asia/Jerusalem", () => true),
  );
  if (captured.length > 0) throw new Error(`end_to_end: the fast path takes ${captured.join("; ")}`);

  const database = await postgresDatabase();
  if (!database) {
    return [{ bench: "end_to_end", users: USERS, llm_latency_ms: LLM_LATENCY_MS, skipped: NO_POSTGRES }];
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
  const rig: Rig = {
    databaseUrl: database.url,
    pool,
    llm: await ScriptedOpenAI.start(),
    graph: await FakeGraphApi.start({ accessToken: TOKEN }),
  };
  const out: Record<string, unknown>[] = [];
  try {
    await migrate(pool, MIGRATIONS);
    script(rig.llm);
    let run = 0;
    for (const [s, [settings, instances, arrivals]] of PLAN.entries()) {
      const warm = phonesOf(90 + s, WARMUP_USERS * instances);
      const measured = arrivals.map(() => phonesOf(++run, USERS));
      await seedUsers(pool, [...warm, ...measured.flat()]);
      const services: Service[] = [];
      try {
        for (let n = 0; n < instances; n++) services.push(await startService(rig, settings));
        await warmUp(rig, services, warm, `W${s}`);
        for (const [a, arrival] of arrivals.entries()) {
          out.push(await measure(rig, services, settings, arrival, measured[a]!, `R${s}.${a}`));
        }
      } finally {
        await Promise.all(services.map((service) => service.stop()));
      }
    }
    const one = out.find(
      (line) => line.instances === 1 && line.settings === PRODUCTION.name && line.arrival === "burst",
    );
    for (const line of out) {
      if (one && line !== one && line.settings === PRODUCTION.name && line.arrival === "burst")
        line.speedup_vs_one_instance = round(Number(line.turns_per_s) / Number(one.turns_per_s));
    }
  } finally {
    await rig.llm.close();
    await rig.graph.close();
    await pool.end();
    await database.drop();
  }
  return out;
}
