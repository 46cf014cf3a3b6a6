import type { Delivery } from "../../src/db/repositories/deliveryLedger.js";
import type { Express } from "express";
import { afterAll, afterEach, beforeAll } from "vitest";
import request from "supertest";
import { createApp } from "../../src/app/httpApp.js";
import { loadConfig } from "../../src/config/env.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { createMemoRuntime } from "../../src/app/createMemoRuntime.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import type { Transcriber } from "../../src/services/media/transcriber.js";
import type { Speaker } from "../../src/services/media/speech.js";
import type { Metrics } from "../../src/services/metrics/metrics.js";
import { createWhatsApp } from "../../src/app/whatsApp.js";
import { signBody } from "../../src/transport/whatsapp/signature.js";
import { InFlightWork } from "../../src/utils/inFlightWork.js";
import { fakeClock, type FakeClock } from "./clock.js";
import { pgliteBackend, type TestDatabase } from "./db.js";
import { FakeGraphApi } from "./fakeGraphApi.js";
import { captureLogs } from "./logs.js";
import { isPlanner } from "./memoHarness.js";
import { ScriptedOpenAI, lastUserMessageOf, type RecordedRequest } from "./scriptedOpenAI.js";
import type { DocumentOfferMaker, DocumentPageReader } from "../../src/types/document.js";

export const APP_SECRET = "test-app-secret";
export const VERIFY_TOKEN = "test-verify-token";
export const PHONE_NUMBER_ID = "1234567890";
export const ACCESS_TOKEN = "test-access-token";

/** One inbound message as WhatsApp writes it (`value.messages[]`). */
export type WaMessage = Record<string, unknown> & {
  from: string;
  id: string;
  timestamp: string;
  type: string;
};

let counter = 0;
/** A fresh WhatsApp-looking message id. */
export const waId = () => `wamid.TEST${Date.now().toString(36)}${(++counter).toString(36)}`;

/** A text message from `phone`, sent at `at` (epoch ms). */
/** A `document` message: a file the fake Graph API serves under `file.id`. */
export function documentMessage(
  phone: string,
  at: number,
  file: { id: string; mimeType: string; filename: string; caption?: string },
): WaMessage {
  return {
    from: phone,
    id: waId(),
    timestamp: String(Math.floor(at / 1000)),
    type: "document",
    document: {
      id: file.id,
      mime_type: file.mimeType,
      filename: file.filename,
      sha256: "x",
      ...(file.caption ? { caption: file.caption } : {}),
    },
  };
}

/**
 * Delivers `message` a second after the harness's now, waits for Memo's `n`-th message to its
 * sender, and returns the latest text sent to them.
 */
export async function deliverAndWait(h: WhatsAppHarness, message: WaMessage, n: number): Promise<string> {
  h.clock.advance(1_000);
  await h.deliver(message);
  await h.graphApi.waitForSent(n);
  await h.idle();
  return h.graphApi.textsTo(message.from).at(-1)!;
}

export function textMessage(
  phone: string,
  body: string,
  at: number,
  extra: { id?: string; replyTo?: string } = {},
): WaMessage {
  return {
    from: phone,
    id: extra.id ?? waId(),
    timestamp: String(Math.floor(at / 1000)),
    type: "text",
    text: { body },
    ...(extra.replyTo ? { context: { from: PHONE_NUMBER_ID, id: extra.replyTo } } : {}),
  };
}

/** A webhook body carrying `messages` and `statuses` in one change (or the changes given). */
export function webhookBody(
  changes: { messages?: unknown[]; statuses?: unknown[]; errors?: unknown[]; contacts?: unknown[] }[],
): Record<string, unknown> {
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

export interface WhatsAppHarnessOptions {
  db?: TestDatabase;
  /** A scripted LLM, or "none" (default: none). */
  llm?: ScriptedOpenAI | "none";
  clock?: FakeClock;
  env?: Record<string, string>;
  transcriber?: Transcriber | null;
  /** Text to speech: one given, "configured" (LLM_SPEECH_MODEL on the scripted server), or none (default). */
  speaker?: Speaker | null | "configured";
  capabilities?: (registry: CapabilityRegistry) => void;
  /** Start the inbox worker (default: true). */
  startWorker?: boolean;
  graphApi?: FakeGraphApi;
  /** Counts webhook, send and delivery events (default: none). */
  metrics?: Metrics;
  /** Milliseconds between the inbox worker's looks for unannounced work (default: 200). */
  pollIntervalMs?: number;
  /** The phone leases' monotonic clock (default: performance.now). */
  leaseClock?: () => number;
  /** Sends household messages the way the server's reminder service does (default: none). */
  deliver?: (deliveries: readonly Delivery[]) => Promise<unknown>;
  /** Makes the offer of what a stored document proposes (default: none, unlike the app, which makes its own). */
  documentOffers?: DocumentOfferMaker;
  /** Reads scanned PDFs' pages (default: the scripted model's, when there is one). */
  pageReader?: DocumentPageReader | null;
}

/**
 * The app with its WhatsApp transport on a test database, a fake Graph API and (optionally) a
 * scripted LLM: what webhook and conversation-through-WhatsApp tests talk to, in-process.
 */
export async function createWhatsAppHarness(options: WhatsAppHarnessOptions = {}) {
  const db = options.db ?? (await pgliteBackend.create());
  const graphApi = options.graphApi ?? (await FakeGraphApi.start({ accessToken: ACCESS_TOKEN }));
  const llm = options.llm === undefined || options.llm === "none" ? undefined : options.llm;
  const clock = options.clock ?? fakeClock(Date.now());
  const { logger, lines } = captureLogs();
  const config = loadConfig({
    NODE_ENV: "test",
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graphApi.baseUrl,
    WHATSAPP_SIMULATOR: "off",
    LLM_MAX_RETRIES: "0",
    LLM_TIMEOUT_MS: "3000",
    ...(llm ? { OPENAI_BASE_URL: llm.baseUrl } : {}),
    ...options.env,
  });
  const checkpointer = await createCheckpointer("postgres", db.pool);
  // Summaries and facts by rules: scripted LLM replies stay for the turns that are scripted.
  const memo = createMemoRuntime({
    config,
    pool: db.pool,
    checkpointer,
    logger,
    clock: clock.now,
    memoryMode: "rules",
    embedder: null,
  });
  options.capabilities?.(memo.capabilities);
  const inFlight = new InFlightWork();
  const whatsapp = createWhatsApp({
    config,
    db,
    memo,
    logger,
    inFlight,
    serviceUrl: () => "http://127.0.0.1:1",
    transcriber: options.transcriber ?? null,
    ...(options.speaker === "configured" ? {} : { speaker: options.speaker ?? null }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    worker: { pollIntervalMs: options.pollIntervalMs ?? 200, retryDelayMs: () => 10 },
    ...(options.leaseClock ? { leaseClock: options.leaseClock } : {}),
    ...(options.deliver ? { deliver: options.deliver } : {}),
    documentOffers: options.documentOffers ?? null,
    ...(options.pageReader !== undefined ? { pageReader: options.pageReader } : {}),
  });
  const app: Express = createApp({
    logger,
    pool: db.pool,
    migrations: MIGRATIONS,
    inFlight,
    isShuttingDown: () => false,
    extraRoutes: (a) => {
      for (const { path, router } of whatsapp.routers) a.use(path, router);
    },
  });
  if (options.startWorker !== false) whatsapp.worker.start();

  /** POSTs a body to the webhook, signed with the app secret unless `sign` says otherwise. */
  const post = (body: unknown, sign: boolean | string = true) => {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    let req = request(app).post("/webhook/whatsapp").set("content-type", "application/json");
    if (sign !== false) {
      req = req.set(
        "x-hub-signature-256",
        typeof sign === "string" ? sign : signBody(Buffer.from(raw), APP_SECRET),
      );
    }
    // A string is sent byte for byte (UTF-8); superagent would re-encode a Buffer as JSON.
    return req.send(raw);
  };

  return {
    app,
    db,
    graphApi,
    llm,
    clock,
    config,
    memo,
    whatsapp,
    logs: lines,
    logger,
    post,
    /** Posts messages in one webhook call and expects the 200. */
    async deliver(...messages: WaMessage[]) {
      const res = await post(webhookBody([{ messages }]));
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
      return res;
    },
    /** A user who has been onboarded already (no welcome), with the given language. */
    async knownUser(phone: string, language: "he" | "en" = "en") {
      return memo.users.getOrCreate(phone, { timeZone: "Asia/Jerusalem", language });
    },
    /** Resolves once the worker has nothing running. */
    idle: () => whatsapp.worker.idle(),
    async close(closeDb = true) {
      await whatsapp.stop();
      await whatsapp.release();
      await memo.longTerm.idle();
      if (!options.graphApi) await graphApi.close();
      if (closeDb) await db.close();
    },
  };
}

export type WhatsAppHarness = Awaited<ReturnType<typeof createWhatsAppHarness>>;

/** The planner's answer "one general step": the general resolver then writes the reply. */
export const GENERAL_PLAN = {
  intentType: "conversation",
  confidence: 0.95,
  riskLevel: "low",
  needsApproval: false,
  missingFields: [],
  clarificationQuestion: null,
  plan: [
    {
      id: "s1",
      capability: "general",
      action: "answer_question",
      constraints: {},
      changes: {},
      dependsOn: [],
    },
  ],
} as const;

/** The general resolver's answer "echo: <the user's message>". */
export function echoReply(req: RecordedRequest): { text: string } {
  const text = lastUserMessageOf(req) ?? "";
  return { text: `echo: ${text.slice(text.lastIndexOf("Message:\n") + "Message:\n".length)}` };
}

/**
 * Scripts the LLM so every message gets the answer "echo: <message>": the planner plans one
 * general step, the general resolver echoes. Lets tests see which message a reply answers.
 * `delayMs` delays each planner answer (a number, or one computed per call).
 */
export function echoLLM(server: ScriptedOpenAI, options: { delayMs?: number | (() => number) } = {}): void {
  const { delayMs } = options;
  server.on(isPlanner, () => ({
    json: GENERAL_PLAN,
    ...(delayMs !== undefined ? { delayMs: typeof delayMs === "number" ? delayMs : delayMs() } : {}),
  }));
  server.on((req) => !isPlanner(req), echoReply);
}

/**
 * For a test file whose tests open harnesses on one scripted model server: starts the server
 * before the file's tests, closes each test's harnesses (and their databases) after it and resets
 * the script. `server()` is the server; `harness(options)` opens a harness on it.
 */
export function scriptedHarnesses() {
  let server: ScriptedOpenAI | undefined;
  const open: WhatsAppHarness[] = [];
  beforeAll(async () => {
    server = await ScriptedOpenAI.start();
  });
  afterAll(() => server?.close());
  afterEach(async () => {
    const harnesses = open.splice(0).reverse();
    for (const h of harnesses) await h.close(false);
    for (const db of new Set(harnesses.map((h) => h.db))) await db.close();
    server?.reset();
  });
  const started = (): ScriptedOpenAI => {
    if (!server) throw new Error("the scripted model server starts in beforeAll");
    return server;
  };
  const harness = async (
    options: Parameters<typeof createWhatsAppHarness>[0] = {},
  ): Promise<WhatsAppHarness> => {
    const h = await createWhatsAppHarness({ llm: started(), ...options });
    open.push(h);
    return h;
  };
  return { server: started, harness };
}
