// GET /metrics (issue #10): what an operator's Prometheus sees after real traffic through the
// started service — a webhook message, a question and its answer, reminders, a refused send.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import type pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { PgInboxRepository } from "../../src/db/repositories/inboxRepository.js";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { metricsRoutes } from "../../src/transport/http/metricsRoute.js";
import { startService, type RunningService } from "../../src/app/server.js";
import { scheduleTask, type TaskTimeArgs } from "../../src/services/tasks/taskTimes.js";
import { Metrics } from "../../src/services/metrics/metrics.js";
import { signBody } from "../../src/transport/whatsapp/signature.js";
import { HITL_TTL_MS } from "../../src/types/index.js";
import { fakeClock } from "../support/clock.js";
import { createPostgresDatabase, testDatabaseUrl } from "../support/db.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { captureLogs } from "../support/logs.js";
import { isPlanner } from "../support/memoHarness.js";
import { seedPgliteDataDir } from "../support/pgliteDataDir.js";
import { freePort } from "../support/process.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  ACCESS_TOKEN,
  APP_SECRET,
  echoReply,
  GENERAL_PLAN,
  PHONE_NUMBER_ID,
  textMessage,
  VERIFY_TOKEN,
  webhookBody,
} from "../support/whatsappHarness.js";

const TOKEN = "metrics-token-0123456789";
const MINUTE = 60_000;
const ZONE = "Asia/Jerusalem";

/** One sample of the text format: `name{label="value",...} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus' text exposition format (comments skipped, label values unescaped). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** A scrape, read as: the sum of the samples of `name` whose labels include `labels`. */
class Scrape {
  constructor(readonly samples: Sample[]) {}

  sum(name: string, labels: Record<string, string> = {}): number {
    return this.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((total, s) => total + s.value, 0);
  }

  /** The one sample of `name` with exactly these labels. */
  one(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples.filter(
      (s) =>
        s.name === name &&
        Object.keys(s.labels).length === Object.keys(labels).length &&
        Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
    return found[0]!.value;
  }
}

const clock = fakeClock("2026-03-02T10:00:00Z");
let graphApi: FakeGraphApi;
let llm: ScriptedOpenAI;
let service: RunningService;
let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  [graphApi, llm] = await Promise.all([
    FakeGraphApi.start({ accessToken: ACCESS_TOKEN }),
    ScriptedOpenAI.start(),
  ]);
  dataDir = await mkdtemp(path.join(tmpdir(), "memo-metrics-"));
  // The machine's Postgres when the run has one (faster to start), else the embedded database.
  let databaseUrl: string | undefined;
  if (testDatabaseUrl) {
    const database = await createPostgresDatabase(testDatabaseUrl);
    databaseUrl = database.url;
    dropDatabase = database.drop;
  } else {
    await seedPgliteDataDir(dataDir);
  }
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graphApi.baseUrl,
    WHATSAPP_SIMULATOR: "off",
    OPENAI_BASE_URL: llm.baseUrl,
    LLM_MAX_RETRIES: "0",
    LLM_TIMEOUT_MS: "3000",
    FAST_PATH: "off",
    MEMORY_MODE: "rules",
    // Passes are run by the test, on its clock.
    SCHEDULER: "off",
    METRICS_TOKEN: TOKEN,
  });
  service = await startService(config, {
    logger: captureLogs().logger,
    memo: { clock: clock.now },
    whatsapp: { transcriber: null, worker: { pollIntervalMs: 200, retryDelayMs: () => 10 } },
  });
}, 60_000);

afterAll(async () => {
  await service?.shutdown("test over");
  await Promise.all([graphApi?.close(), llm?.close()]);
  await dropDatabase?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  llm.reset();
  graphApi.reset();
});

/** GET /metrics with the token (or the Authorization header given). */
function getMetrics(authorization: string | null = `Bearer ${TOKEN}`): Promise<Response> {
  return fetch(`${service.url}/metrics`, {
    headers: authorization === null ? {} : { authorization },
  });
}

async function scrape(): Promise<Scrape> {
  const res = await getMetrics();
  expect(res.status).toBe(200);
  return new Scrape(parseMetrics(await res.text()));
}

/** POSTs a signed webhook body; expects the 200. */
async function postWebhook(body: unknown): Promise<void> {
  const raw = JSON.stringify(body);
  const res = await fetch(`${service.url}/webhook/whatsapp`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signBody(raw, APP_SECRET) },
    body: raw,
  });
  expect(res.status).toBe(200);
}

/** The user writes `text` now; resolves once Memo's reply went out. */
async function say(phone: string, text: string): Promise<string> {
  const before = graphApi.textsTo(phone).length;
  await postWebhook(webhookBody([{ messages: [textMessage(phone, text, clock.now())] }]));
  await expect.poll(() => graphApi.textsTo(phone).length, { timeout: 10_000 }).toBeGreaterThan(before);
  return graphApi.textsTo(phone).at(-1)!;
}

/** A known user who wrote to Memo just now, unless `inbound` is null (never wrote). */
async function user(phone: string, inbound: number | null = clock.now()): Promise<void> {
  await service.users.getOrCreate(phone, { timeZone: ZONE, language: "en" });
  if (inbound !== null) await service.users.recordInbound(phone, new Date(inbound));
}

/** A reminder made from time words, as a conversation makes one. */
async function remind(phone: string, text: string, words: TaskTimeArgs): Promise<void> {
  const scheduled = scheduleTask(words, { nowMs: clock.now(), timeZone: ZONE });
  if (!scheduled.ok) throw new Error(`unschedulable: ${scheduled.problem}`);
  const { dateOnly: _, ...schedule } = scheduled.schedule;
  await new PgTaskRepository(service.db.pool).create(phone, `test:${randomUUID()}`, {
    text,
    timeZone: ZONE,
    ...schedule,
  });
}

describe("GET /metrics access", () => {
  it("answers 401 with nothing to read without the bearer token, and the metrics with it", async () => {
    for (const authorization of [null, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`, "Bearer"]) {
      const res = await getMetrics(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(await res.text()).toBe("");
    }
    const res = await getMetrics(`bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const body = await res.text();
    // Process metrics as dashboards expect them, and Memo's own.
    expect(body).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(body).toContain("# TYPE memo_turns_total counter");
    const samples = new Scrape(parseMetrics(body));
    expect(samples.one("memo_turns_total", { status: "completed", trigger: "user" })).toBe(0);
  });

  it("is open when no token is configured", async () => {
    const app = express().use(metricsRoutes({ metrics: new Metrics({ processMetrics: false }) }));
    const res = await request(app).get("/metrics");
    expect(res.status).toBe(200);
    expect(res.text).toContain("memo_hitl_questions_total");
  });
});

describe("after traffic", () => {
  it("a webhook message: the turn, each LLM call's tokens and cost, and the acknowledgement time", async () => {
    const phone = "972501110001";
    await user(phone);
    llm.on(isPlanner, { json: GENERAL_PLAN, usage: { prompt_tokens: 1200, completion_tokens: 80 } });
    llm.on(
      (req) => !isPlanner(req),
      (req) => ({
        ...echoReply(req),
        usage: { prompt_tokens: 300, completion_tokens: 20 },
      }),
    );
    const before = await scrape();

    expect(await say(phone, "what is the tallest mountain")).toContain("echo: what is the tallest mountain");

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      after.sum(name, labels) - before.sum(name, labels);
    expect(delta("memo_turns_total", { status: "completed", trigger: "user" })).toBe(1);
    expect(delta("memo_turn_duration_seconds_count", { status: "completed", trigger: "user" })).toBe(1);
    expect(delta("memo_turn_duration_seconds_sum")).toBeGreaterThan(0);
    // The planner's call, on the model it is configured with, and what it cost at list price.
    const planner = { node: "planner", model: "gpt-4o-mini" };
    expect(delta("memo_llm_calls_total", { ...planner, outcome: "ok" })).toBe(1);
    expect(delta("memo_llm_input_tokens_total", planner)).toBe(1200);
    expect(delta("memo_llm_output_tokens_total", planner)).toBe(80);
    expect(delta("memo_llm_cost_usd_total", planner)).toBeCloseTo((1200 * 0.00015 + 80 * 0.0006) / 1000, 9);
    expect(delta("memo_llm_call_duration_seconds_count", { node: "planner" })).toBe(1);
    // The reply was written by another node: its calls are counted too, under its own name.
    const otherCalls = delta("memo_llm_calls_total", { outcome: "ok" }) - 1;
    expect(otherCalls).toBeGreaterThan(0);
    expect(delta("memo_llm_input_tokens_total", {})).toBe(1200 + 300 * otherCalls);
    // The webhook's 200, timed from arrival.
    expect(delta("memo_webhook_ack_duration_seconds_count", { status: "200" })).toBe(1);
    expect(delta("memo_webhook_ack_duration_seconds_bucket", { status: "200", le: "+Inf" })).toBe(1);
    expect(delta("memo_webhook_ack_duration_seconds_sum", { status: "200" })).toBeGreaterThan(0);
  });

  it("a failed LLM call is counted by its error kind, on the node's configured model", async () => {
    const phone = "972501110002";
    await user(phone);
    // A 400 is not retried and not sent to the fallback model: exactly one failed call.
    llm.on(isPlanner, { status: 400 });
    const before = await scrape();
    await say(phone, "plan my week please");
    const after = await scrape();
    const labels = { node: "planner", model: "gpt-4o-mini", outcome: "api_error" };
    expect(after.sum("memo_llm_calls_total", labels) - before.sum("memo_llm_calls_total", labels)).toBe(1);
  });

  it("questions: opened once (a re-ask is not a new one), answered, and expired", async () => {
    const phone = "972501110003";
    await user(phone);
    // A risky plan: Memo asks before acting; "yes" lets the general step answer.
    llm.on(isPlanner, { json: { ...GENERAL_PLAN, riskLevel: "high" } });
    llm.on((req) => !isPlanner(req), echoReply);
    const before = await scrape();
    const delta = (after: Scrape, name: string, labels: Record<string, string>) =>
      after.sum(name, labels) - before.sum(name, labels);

    expect(await say(phone, "wipe the slate")).toContain("Should I go ahead?");
    await say(phone, "perhaps");
    expect(await say(phone, "yes")).toContain("echo:");
    let after = await scrape();
    expect(delta(after, "memo_hitl_questions_total", { event: "opened" })).toBe(1);
    expect(delta(after, "memo_hitl_questions_total", { event: "answered" })).toBe(1);
    expect(delta(after, "memo_turns_total", { status: "waiting", trigger: "user" })).toBe(2);
    expect(delta(after, "memo_turns_total", { status: "completed", trigger: "user" })).toBe(1);

    // Asked again, then left unanswered past its time: found expired when the user next writes.
    await say(phone, "wipe it all");
    clock.advance(HITL_TTL_MS + MINUTE);
    llm.reset();
    llm.on(isPlanner, { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), echoReply);
    expect(await say(phone, "tell me a joke")).toContain("timed out");
    after = await scrape();
    expect(delta(after, "memo_hitl_questions_total", { event: "opened" })).toBe(2);
    expect(delta(after, "memo_hitl_questions_total", { event: "expired" })).toBe(1);
    expect(delta(after, "memo_hitl_questions_total", { event: "answered" })).toBe(1);
    expect(delta(after, "memo_turns_total", { status: "expired", trigger: "user" })).toBe(1);
  });

  it("reminders: sent, late, undeliverable, and a refused send by its WhatsApp error code", async () => {
    const onTime = "972502220001";
    const late = "972502220002";
    const outside = "972502220003";
    const refused = "972502220004";
    await user(onTime);
    await user(late);
    await user(refused);
    // Never wrote: outside WhatsApp's 24-hour window, and no template is configured.
    await user(outside, null);
    await remind(late, "stretch", { dueDate: "in 2 minutes" });
    await remind(onTime, "water the plants", { dueDate: "in 12 minutes" });
    await remind(outside, "call the bank", { dueDate: "in 12 minutes" });
    const before = await scrape();
    const delta = (after: Scrape, name: string, labels: Record<string, string>) =>
      after.sum(name, labels) - before.sum(name, labels);

    clock.advance(12 * MINUTE);
    await service.scheduler.runDue();
    expect(graphApi.textsTo(late)).toEqual([expect.stringContaining("stretch")]);
    expect(graphApi.textsTo(onTime)).toEqual([expect.stringContaining("water the plants")]);
    let after = await scrape();
    // Labelled by the kind of delivery: one-time reminders here.
    expect(delta(after, "memo_reminders_total", { kind: "reminder", outcome: "sent" })).toBe(2);
    expect(delta(after, "memo_reminders_late_total", { kind: "reminder" })).toBe(1);
    expect(delta(after, "memo_reminders_total", { kind: "reminder", outcome: "undeliverable" })).toBe(1);
    expect(delta(after, "memo_reminders_total", { outcome: "failed" })).toBe(0);

    // WhatsApp refuses the next send for good (131026: message undeliverable).
    await remind(refused, "pay rent", { dueDate: "in 2 minutes" });
    graphApi.failNext(1, { status: 400, code: 131026, message: "Message undeliverable" });
    clock.advance(2 * MINUTE);
    await service.scheduler.runDue();
    expect(graphApi.textsTo(refused)).toEqual([]);
    after = await scrape();
    expect(delta(after, "memo_reminders_total", { kind: "reminder", outcome: "failed" })).toBe(1);
    expect(delta(after, "memo_whatsapp_send_failures_total", { code: "131026", kind: "api" })).toBe(1);
  });

  it("a failed delivery status from WhatsApp is counted by its error code", async () => {
    const before = await scrape();
    const at = Math.floor(clock.now() / 1000);
    await postWebhook(
      webhookBody([
        {
          statuses: [
            {
              id: "wamid.UNKNOWN1",
              status: "failed",
              timestamp: String(at),
              recipient_id: "972502220009",
              errors: [{ code: 131047, title: "Re-engagement message" }],
            },
          ],
        },
      ]),
    );
    const after = await scrape();
    const labels = { code: "131047" };
    const name = "memo_whatsapp_delivery_failures_total";
    expect(after.sum(name, labels) - before.sum(name, labels)).toBe(1);
  });

  it("the inbox backlog: pending messages and how long the oldest has waited", async () => {
    // With the worker stopped, what arrives stays pending.
    await service.whatsapp.worker.stop();
    try {
      expect((await scrape()).one("memo_inbox_pending_messages")).toBe(0);
      expect((await scrape()).one("memo_inbox_oldest_pending_age_seconds")).toBe(0);
      await postWebhook(
        webhookBody([
          {
            messages: [
              textMessage("972503330001", "one", clock.now()),
              textMessage("972503330002", "two", clock.now()),
            ],
          },
        ]),
      );
      // One that arrived 90 seconds ago (as if the worker had been stuck since).
      await service.db.pool.query(
        `INSERT INTO inbox_messages (wa_message_id, phone, type, sent_at, received_at, payload)
         VALUES ('wamid.OLD1', '972503330003', 'text', now(), now() - interval '90 seconds', '{}')`,
      );
      const samples = await scrape();
      expect(samples.one("memo_inbox_pending_messages")).toBe(3);
      const age = samples.one("memo_inbox_oldest_pending_age_seconds");
      expect(age).toBeGreaterThanOrEqual(90);
      expect(age).toBeLessThan(150);
    } finally {
      await service.db.pool.query(`DELETE FROM inbox_messages WHERE status = 'pending'`);
      service.whatsapp.worker.start();
    }
  });
});

describe("when the inbox cannot be read", () => {
  it("the scrape still answers: the backlog is NaN and the failure counted", async () => {
    const failing = { query: () => Promise.reject(new Error("connection refused")) } as unknown as pg.Pool;
    const hanging = { query: () => new Promise(() => undefined) } as unknown as pg.Pool;
    for (const pool of [failing, hanging]) {
      const metrics = new Metrics({
        inbox: new PgInboxRepository(pool),
        processMetrics: false,
        inboxTimeoutMs: 50,
      });
      const first = new Scrape(parseMetrics(await metrics.render()));
      expect(first.one("memo_inbox_pending_messages")).toBeNaN();
      expect(first.one("memo_inbox_oldest_pending_age_seconds")).toBeNaN();
      expect(first.one("memo_inbox_scrape_errors_total")).toBe(1);
      // Both gauges came from one query.
      expect(new Scrape(parseMetrics(await metrics.render())).one("memo_inbox_scrape_errors_total")).toBe(2);
    }
  });
});
