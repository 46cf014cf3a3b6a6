import type { RetrievalWeights } from "../types/retrieval.js";
import { z } from "zod";
import { isValidTimeZone } from "../utils/timeContext.js";
import { normalizePhone } from "../utils/phone.js";
import { MemoError } from "../utils/errors.js";
import { ALL_IN_EVERY_TIER, PlanTiersSchema, type PlanTiers } from "./planTiers.js";

/**
 * Every environment variable the service reads, with its default.
 * `.env.example` documents the same list; keep the two in step.
 */
/** A whole number within bounds, read from a string, with a message that says what is accepted. */
function wholeNumber(min: number, max: number, fallback: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .default(fallback);
}

/** A model name as an OpenAI-compatible server spells it: any text without spaces. */
function modelName() {
  return z
    .string()
    .regex(/^\S+$/, { error: "must be a model name without spaces" })
    .max(200, { error: "must be a model name without spaces" })
    .optional();
}

const EnvSchema = z.object({
  /** development | test | production (default: development). production turns fallbacks into errors. */
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** TCP port the HTTP server listens on (default: 3000). */
  PORT: wholeNumber(1, 65535, 3000),
  /** Interface the HTTP server binds (default: 0.0.0.0). */
  HOST: z.string().min(1).default("0.0.0.0"),
  /** pino log level (default: info). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Log phone numbers as keyed tags and leave out message bodies and email content: on | off, for local debugging only (credentials are always left out) (default: on). */
  LOG_REDACT: z.enum(["on", "off"]).default("on"),

  /** Postgres connection string; unset means the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(v), {
      message: "must be a postgres:// or postgresql:// connection string",
    }),
  /** Largest number of pooled Postgres connections (default: 10; PGlite always uses 1). */
  DATABASE_POOL_MAX: wholeNumber(1, 200, 10),
  /** Milliseconds to wait for a database connection before giving up (default: 5000). */
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(100, 120_000, 5000),
  /** Folder of the embedded database and other local files (default: ./data). */
  DATA_DIR: z.string().min(1).default("./data"),

  /** Where paused conversation threads are kept: postgres | memory (default: postgres). */
  CHECKPOINTER: z.enum(["postgres", "memory"]).default("postgres"),
  /** IANA time zone given to users seen for the first time (default: Asia/Jerusalem). */
  DEFAULT_TIMEZONE: z
    .string()
    .default("Asia/Jerusalem")
    .refine(isValidTimeZone, { message: "must be an IANA time zone such as Asia/Jerusalem" }),
  /** Everyday commands ("my tasks", "done 2", "remind me tomorrow at 9 to…") handled in code with no LLM call: on | off (default: on). */
  FAST_PATH: z.enum(["on", "off"]).default("on"),
  /** Minutes within which "undo" / "בטל" takes back a change (delete, done, edit, move, forget a note) (default: 10). */
  UNDO_WINDOW_MINUTES: wholeNumber(1, 1440, 10),

  /** Milliseconds in-flight work may take after SIGTERM before the process is stopped (default: 10000). */
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 600_000, 10_000),
  /** Bearer token GET /metrics requires (`Authorization: Bearer <token>`), at least 16 characters (default: unset, /metrics is open: keep it off the public internet). */
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),

  /** Meta app secret that signs webhook bodies (required in production). */
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  /** WhatsApp Cloud API access token (required in production). Unset outside production turns the local simulator on. */
  WHATSAPP_ACCESS_TOKEN: z.string().min(1).optional(),
  /** The token Meta echoes when verifying the webhook URL (required in production). */
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  /** Id of the WhatsApp business phone number Memo sends from (required in production). */
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^[0-9]{1,30}$/, { error: "must be the numeric phone number id from Meta's app dashboard" })
    .optional(),
  /** Base URL of the Graph API (default: https://graph.facebook.com). */
  WHATSAPP_GRAPH_URL: z
    .string()
    .default("https://graph.facebook.com")
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v), { message: "must be an http:// or https:// URL" }),
  /** Graph API version (default: v23.0). */
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v[0-9]+\.[0-9]+$/, { error: "must look like v23.0" })
    .default("v23.0"),
  /** Milliseconds one Graph API request may take (default: 10000). */
  WHATSAPP_TIMEOUT_MS: wholeNumber(100, 120_000, 10_000),
  /** Sends to WhatsApp under way at once in this process: a crash repeats at most this many replies (default: 1). */
  WHATSAPP_SEND_CONCURRENCY: wholeNumber(1, 64, 1),
  /** The local WhatsApp simulator at /dev/whatsapp: auto (on when WHATSAPP_ACCESS_TOKEN is unset) | on | off; never in production (default: auto). */
  WHATSAPP_SIMULATOR: z.enum(["auto", "on", "off"]).default("auto"),
  /** Comma-separated host names the simulator answers to besides localhost, 127.0.0.1 and [::1] (default: none). */
  SIMULATOR_ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Debug forwarding: a developer's Memo webhook (e.g. https://dev.example.com/webhook/whatsapp) that also receives the webhooks of DEBUG_FORWARD_PHONES, signed with DEBUG_FORWARD_SECRET (default: unset, nothing is forwarded). */
  DEBUG_FORWARD_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  /** Comma-separated test phones whose webhooks are forwarded to DEBUG_FORWARD_URL, e.g. +972501234567,+14155550100 (required with DEBUG_FORWARD_URL). */
  DEBUG_FORWARD_PHONES: z
    .string()
    .transform((v, ctx) => {
      const phones: string[] = [];
      for (const raw of v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        try {
          phones.push(normalizePhone(raw));
        } catch {
          ctx.addIssue({
            code: "custom",
            message: "must be phone numbers such as +972501234567, comma-separated",
          });
          return z.NEVER;
        }
      }
      return phones;
    })
    .optional(),
  /** Secret the forwarded bodies are signed with (X-Hub-Signature-256, as Meta signs with the app secret): the developer's Memo sets it as its WHATSAPP_APP_SECRET (required with DEBUG_FORWARD_URL). */
  DEBUG_FORWARD_SECRET: z.string().min(16, { error: "must be at least 16 characters" }).optional(),

  /** Whether this instance works off the inbox: on | off (webhook-only instances, with workers elsewhere) (default: on). */
  INBOX_WORKER: z.enum(["on", "off"]).default("on"),
  /** Turns of different phones run at once (default: 8). */
  INBOX_CONCURRENCY: wholeNumber(1, 256, 8),
  /** Hours after which an inbound message is recorded but not answered (default: 24). */
  INBOX_MAX_AGE_HOURS: wholeNumber(1, 24 * 30, 24),
  /** Seconds a phone's inbox lease lives unrenewed: how long a crashed instance's phones wait (default: 30). */
  INBOX_LEASE_SECONDS: wholeNumber(2, 600, 30),
  /** Attempts at a message's turn before the user gets an apology (default: 3). */
  INBOX_MAX_ATTEMPTS: wholeNumber(1, 10, 3),

  /** Whether this instance runs the scheduler (reminders, nudges, digests, clean-up): on | off (default: on). Several instances may all run it. */
  SCHEDULER: z.enum(["on", "off"]).default("on"),
  /** Local time of a new user's morning digest: an hour ("8") or HH:mm ("07:30") (default: 08:00). */
  MORNING_DIGEST_HOUR: z
    .string()
    .default("08:00")
    .transform((v, ctx) => {
      const match = /^([01]?[0-9]|2[0-3])(?::([0-5][0-9]))?$/.exec(v.trim());
      if (!match) {
        ctx.addIssue({ code: "custom", message: 'must be an hour from 0 to 23 or a time such as "07:30"' });
        return z.NEVER;
      }
      return `${match[1]!.padStart(2, "0")}:${match[2] ?? "00"}`;
    }),
  /** Let the response writer's model polish the morning digest's wording: on | off (default: off). */
  MORNING_DIGEST_POLISH: z.enum(["on", "off"]).default("off"),
  /** Name of the approved message template for reminders outside WhatsApp's 24-hour window; its body takes the reminder as {{1}} (default: unset, such reminders are recorded as undeliverable). */
  WHATSAPP_REMINDER_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: "must be a template name: lowercase letters, digits and _" })
    .optional(),
  /** Name of the approved message template for morning digests outside the 24-hour window; its body takes the digest as {{1}} (default: unset). */
  WHATSAPP_DIGEST_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: "must be a template name: lowercase letters, digits and _" })
    .optional(),
  /** Name of the approved message template for weekly reviews outside the 24-hour window; its body takes the review as {{1}} (default: unset). */
  WHATSAPP_WEEKLY_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: "must be a template name: lowercase letters, digits and _" })
    .optional(),
  /**
   * Name of the approved message template for household messages (an invitation, a member who
   * joined or left) to people outside the 24-hour window; its body takes the message as {{1}} and
   * it has two quick-reply buttons, Accept and Decline (default: unset; memo_household with the
   * local simulator, which takes any template). See docs/HOUSEHOLD.md.
   */
  WHATSAPP_HOUSEHOLD_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, { error: "must be a template name: lowercase letters, digits and _" })
    .optional(),
  /** Days a household invitation can be answered, listed to its inviter until then (default: 7). */
  HOUSEHOLD_INVITATION_DAYS: wholeNumber(1, 90, 7),
  /** Reminders and tasks one household member may give another in 24 hours (default: 10). */
  HOUSEHOLD_TASKS_PER_DAY: wholeNumber(1, 1000, 10),
  /** Language code of the templates for Hebrew speakers (default: he). */
  WHATSAPP_TEMPLATE_LANGUAGE_HE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: "must be a language code such as he or en_US" })
    .default("he"),
  /** Language code of the templates for everyone else (default: en). */
  WHATSAPP_TEMPLATE_LANGUAGE_EN: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: "must be a language code such as he or en_US" })
    .default("en"),
  /** Most proactive messages (reminders, digests) this instance sends per second (default: 80). */
  PROACTIVE_MAX_PER_SECOND: wholeNumber(1, 1000, 80),
  /** Least seconds between two proactive messages to the same user (default: 6, WhatsApp's pair rate). */
  PROACTIVE_USER_GAP_SECONDS: wholeNumber(6, 3600, 6),
  /** Days processed inbox rows, sent-message records and reminder deliveries are kept (default: 30). */
  RETENTION_DAYS: wholeNumber(1, 3650, 30),

  /** OpenAI API key (required in production). */
  OPENAI_API_KEY: z.string().min(1).optional(),

  /** Base URL of any OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1 (default: unset, OpenAI itself). */
  OPENAI_BASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), {
      message: "must be an http:// or https:// URL",
    }),
  /** Model of the planner (default: gpt-4o-mini, from src/config/llmConfig.ts). */
  LLM_PLANNER_MODEL: modelName(),
  /** Model of every resolver (default: gpt-4o-mini). */
  LLM_RESOLVER_MODEL: modelName(),
  /** Model of the response writer (default: gpt-4o-mini). */
  LLM_RESPONSE_MODEL: modelName(),
  /** Model of image analysis (default: gpt-4o). */
  LLM_IMAGE_MODEL: modelName(),
  /** Model of voice-note transcription (default: gpt-4o-mini-transcribe). */
  LLM_TRANSCRIBE_MODEL: modelName().default("gpt-4o-mini-transcribe"),
  /** Model of spoken answers (text to speech); "off" answers in text only (default: gpt-4o-mini-tts). */
  LLM_SPEECH_MODEL: modelName().default("gpt-4o-mini-tts"),
  /** Voice of spoken answers in English (default: coral). */
  LLM_SPEECH_VOICE: modelName().default("coral"),
  /** Voice of spoken answers in Hebrew (default: LLM_SPEECH_VOICE). */
  LLM_SPEECH_VOICE_HE: modelName(),
  /** How conversation summaries and remembered facts are made: llm (when one is configured) or rules, with no LLM cost (default: llm). */
  MEMORY_MODE: z.enum(["llm", "rules"]).default("llm"),
  /** Model of conversation summaries and remembered facts (default: gpt-4o-mini). */
  LLM_MEMORY_MODEL: modelName(),
  /** Spec 004's retrieval weights semantic,keyword,recency,importance,access (default: 0.4,0.3,0.2,0.1,0). */
  MEMORY_RETRIEVAL_WEIGHTS: z
    .string()
    .trim()
    .default("0.4,0.3,0.2,0.1,0")
    .transform((value, ctx) => {
      const parts = value.split(",").map((p) => Number(p.trim()));
      if (
        parts.length !== 5 ||
        parts.some((n) => !Number.isFinite(n) || n < 0) ||
        parts.every((n) => n === 0)
      ) {
        ctx.addIssue({ code: "custom", message: "five weights ≥ 0, not all 0, e.g. 0.4,0.3,0.2,0.1,0" });
        return z.NEVER;
      }
      const [semantic, keyword, recency, importance, access] = parts as [
        number,
        number,
        number,
        number,
        number,
      ];
      return { semantic, keyword, recency, importance, access };
    }),
  /** Embedding model of note search, used when OPENAI_API_KEY is set; "off" searches notes by words only (default: text-embedding-3-small, 1536 dimensions). */
  EMBEDDINGS_MODEL: z
    .string()
    .regex(/^[A-Za-z0-9._:/-]{1,100}$/, "must be a model name or off")
    .default("text-embedding-3-small"),
  /** Model tried once when a node's own model fails (default: gpt-4o). */
  LLM_FALLBACK_MODEL: modelName().default("gpt-4o"),
  /** How structured output is requested: jsonSchema | functionCalling | jsonMode (default: jsonSchema). */
  LLM_STRUCTURED_OUTPUT_METHOD: z.enum(["jsonSchema", "functionCalling", "jsonMode"]).default("jsonSchema"),
  /** off: the schema is sent with strict false, for servers that refuse strict schemas (default: on). */
  LLM_STRUCTURED_OUTPUT_STRICT: z.enum(["on", "off"]).default("on"),
  /** Milliseconds one LLM request may take before it counts as timed out (default: 30000). */
  LLM_TIMEOUT_MS: wholeNumber(10, 600_000, 30_000),
  /** Retries of one LLM request on rate limits, 5xx and timeouts, before the fallback model (default: 2). */
  LLM_MAX_RETRIES: wholeNumber(0, 10, 2),
  /** USD one user's LLM calls may cost per day (their local day); past it Memo answers only fast-path commands and says why. 0 means no limit (default: 2). */
  LLM_DAILY_BUDGET_USD: z.coerce
    .number({ error: "must be an amount in USD such as 2 or 0.5 (0: no limit)" })
    .min(0, { error: "must be an amount in USD such as 2 or 0.5 (0: no limit)" })
    .max(10_000, { error: "must be an amount in USD such as 2 or 0.5 (0: no limit)" })
    .default(2),
  /** What each plan tier (users.plan_tier: free, pro, enterprise) includes, as JSON: {"free": {"capabilities": ["database", "calendar"], "dailyBudgetUsd": 0.5}}; capabilities are calendar, gmail, database, secondBrain; a tier or field left out keeps everything and LLM_DAILY_BUDGET_USD (default: unset, every tier gets everything). */
  PLAN_TIERS: PlanTiersSchema.optional(),

  /** The address users reach this service at, for links sent in chat (Google connect, calendar feed), e.g. https://memo.example.com (default: the service's own local address). */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  /** OAuth client id of the Google Cloud project (default: unset, Google cannot be connected; the built-in calendar serves calendar requests). */
  GOOGLE_CLIENT_ID: z.string().optional(),
  /** OAuth client secret of the Google Cloud project. */
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** The OAuth redirect URL registered in Google Cloud (default: PUBLIC_URL + /auth/google/callback). */
  GOOGLE_REDIRECT_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  /** Google's consent page (default: https://accounts.google.com/o/oauth2/v2/auth; tests point it elsewhere). */
  GOOGLE_AUTH_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("https://accounts.google.com/o/oauth2/v2/auth"),
  /** Google's token endpoint (default: https://oauth2.googleapis.com/token). */
  GOOGLE_TOKEN_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("https://oauth2.googleapis.com/token"),
  /** Root URL of the Google APIs, Calendar v3 and Gmail v1 (default: https://www.googleapis.com/; tests point it at local stand-ins). */
  GOOGLE_API_ROOT_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .transform((v) => (v.endsWith("/") ? v : `${v}/`))
    .default("https://www.googleapis.com/"),
  /** 32-byte key (64 hex characters or base64) that encrypts Google tokens at rest and signs links (required in production; elsewhere a key is generated and kept in the database). */
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .refine((v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, "base64").length === 32, {
      error: "must be 32 bytes: 64 hex characters or base64",
    })
    .optional(),

  /** Send a trace of every turn to LangSmith: true | false (default: false, nothing is traced and no client exists). */
  LANGSMITH_TRACING: z.enum(["true", "false"]).default("false"),
  /** LangSmith API key (required with LANGSMITH_TRACING=true). */
  LANGSMITH_API_KEY: z.string().min(1).optional(),
  /** LangSmith project the traces go to (default: memo). */
  LANGSMITH_PROJECT: z.string().min(1).max(200).default("memo"),
  /** LangSmith API URL (default: https://api.smith.langchain.com; e.g. https://eu.api.smith.langchain.com or a self-hosted one). */
  LANGSMITH_ENDPOINT: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .transform((v) => v.replace(/\/+$/, ""))
    .default("https://api.smith.langchain.com"),
  /** Send message bodies, LLM prompts and answers in traces: true | false; phone numbers are always sent as keyed tags (default: false). */
  LANGSMITH_INCLUDE_CONTENT: z.enum(["true", "false"]).default("false"),
});

type Env = z.infer<typeof EnvSchema>;

/** Settings that must be given explicitly when NODE_ENV=production. */
const PRODUCTION_REQUIRED = [
  "DATABASE_URL",
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_ACCESS_TOKEN",
  "WHATSAPP_VERIFY_TOKEN",
  "WHATSAPP_PHONE_NUMBER_ID",
  "OPENAI_API_KEY",
  "TOKEN_ENCRYPTION_KEY",
] as const satisfies readonly (keyof Env)[];

/** The service's resolved configuration. */
export interface AppConfig {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  logLevel: Env["LOG_LEVEL"];
  /** Phone numbers tagged and bodies left out of the logs (LOG_REDACT, default on). */
  logRedact: boolean;
  database:
    | { kind: "postgres"; url: string; poolMax: number; connectTimeoutMs: number }
    | { kind: "pglite"; dataDir: string };
  dataDir: string;
  checkpointer: Env["CHECKPOINTER"];
  defaultTimeZone: string;
  /** Whether everyday commands skip the LLM (help and greetings always do). */
  fastPath: boolean;
  /** Minutes within which "undo" takes back a change (UNDO_WINDOW_MINUTES). */
  undoWindowMinutes: number;
  shutdownTimeoutMs: number;
  /** METRICS_TOKEN: the bearer token GET /metrics requires; absent: /metrics is open. */
  metricsToken?: string;
  whatsapp: WhatsAppSettings;
  inbox: InboxSettings;
  scheduler: SchedulerSettings;
  /** Households: how long an invitation stays open, and tasks a day from one member to another. */
  household: { invitationDays: number; tasksPerDay: number };
  openai: { apiKey?: string };
  /** MEMORY_MODE: summaries and remembered facts by the LLM (when there is one) or by rules. */
  memoryMode: "llm" | "rules";
  /** MEMORY_RETRIEVAL_WEIGHTS: spec 004's weights of the five retrieval strategies. */
  retrievalWeights: RetrievalWeights;
  /** Note embeddings (EMBEDDINGS_MODEL with OPENAI_API_KEY); null: notes are searched by words only. */
  embeddings: EmbeddingSettings | null;
  llm: LLMSettings;
  /** What each plan tier includes and may spend a day (PLAN_TIERS; default: everything, LLM_DAILY_BUDGET_USD). */
  planTiers: PlanTiers;
  google: GoogleSettings;
  /** PUBLIC_URL, when given: where links sent in chat point (else the service's own address). */
  publicUrl?: string;
  /** TOKEN_ENCRYPTION_KEY as 32 bytes, when given. */
  tokenKey?: Buffer;
  /** LangSmith tracing (LANGSMITH_TRACING=true); null: off. */
  tracing: TracingSettings | null;
}

/** Where turns are traced in LangSmith, and how much of them. */
export interface TracingSettings {
  apiKey: string;
  /** LANGSMITH_ENDPOINT, without a trailing slash. */
  endpoint: string;
  project: string;
  /** Message bodies and prompts included (LANGSMITH_INCLUDE_CONTENT); phone numbers never are. */
  includeContent: boolean;
}

/** The Google connection (OAuth) and the API endpoints; `oauth` is absent when no client is configured. */
interface GoogleSettings {
  oauth?: { clientId: string; clientSecret: string; redirectUrl?: string };
  authUrl: string;
  tokenUrl: string;
  apiRootUrl: string;
}

/** The WhatsApp Cloud API connection, or the local simulator standing in for it. */
interface WhatsAppSettings {
  appSecret?: string;
  accessToken?: string;
  verifyToken?: string;
  /** The business number's id; "simulator" when the simulator stands in and none is set. */
  phoneNumberId: string;
  graphUrl: string;
  apiVersion: string;
  timeoutMs: number;
  /** Sends under way at once; a crash repeats at most this many replies (see docs/WHATSAPP.md). */
  sendConcurrency: number;
  /** Mount /dev/whatsapp and send through it instead of graphUrl. */
  simulator: boolean;
  /** Host names the simulator answers to besides the loopback ones (lower case). */
  simulatorAllowedHosts: string[];
  /** Debug forwarding of test phones' webhooks to a developer's Memo (DEBUG_FORWARD_*); absent: off. */
  debugForward?: { url: string; phones: string[]; secret: string };
}

/** How inbound messages are worked off (D4). */
interface InboxSettings {
  /** Run the inbox worker in this process. */
  worker: boolean;
  concurrency: number;
  maxAgeMs: number;
  maxAttempts: number;
  leaseSeconds: number;
}

/** Reminders, nudges, digests and clean-up (D8). */
export interface SchedulerSettings {
  /** Run the scheduler in this process. */
  enabled: boolean;
  /** A new user's digest time, HH:mm local. */
  digestTime: string;
  /** Polish digests with the response writer's model (when an LLM is configured). */
  digestPolish: boolean;
  /** Templates for messages outside the 24-hour window; absent: none configured. */
  templates: {
    reminder?: string;
    digest?: string;
    weekly?: string;
    household?: string;
    languages: { he: string; en: string };
  };
  maxPerSecond: number;
  userGapMs: number;
  retentionDays: number;
}

/** The embedding model of note search. */
export interface EmbeddingSettings {
  model: string;
  apiKey: string;
  /** OPENAI_BASE_URL, when set. */
  baseUrl?: string;
}

/** The LLM settings of the environment; `src/config/llmConfig.ts` turns them into a model per node. */
export interface LLMSettings {
  /** OPENAI_BASE_URL: an OpenAI-compatible server instead of OpenAI. */
  baseUrl?: string;
  /** Model overrides by env; unset means the node's default. */
  models: {
    planner?: string;
    resolver?: string;
    response?: string;
    image?: string;
    memory?: string;
    transcribe: string;
    fallback: string;
  };
  /** Spoken answers: the speech model (null: "off") and its voice by the reply's language. */
  speech: { model: string | null; voices: { he: string; en: string } };
  structuredOutputMethod: Env["LLM_STRUCTURED_OUTPUT_METHOD"];
  /** Whether jsonSchema and functionCalling send the schema strict (LLM_STRUCTURED_OUTPUT_STRICT). */
  structuredOutputStrict: boolean;
  timeoutMs: number;
  maxRetries: number;
  /** USD a user's LLM calls may cost per local day; 0: no limit (LLM_DAILY_BUDGET_USD). */
  dailyBudgetUsd: number;
}

/** One variable that failed validation; `reason` never contains the variable's value. */
export interface ConfigProblem {
  variable: string;
  reason: string;
}

/** Thrown when the environment does not describe a valid configuration. */
export class ConfigError extends MemoError {
  constructor(readonly problems: ConfigProblem[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.reason}`).join("; ")}`, {
      variables: problems.map((p) => p.variable),
    });
  }
}

/** Empty strings in the environment mean "not set", as in most .env tooling. */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== "") out[key] = value;
  }
  return out;
}

/**
 * Validates the environment and returns the configuration.
 * Throws ConfigError naming every bad or missing variable; values are never echoed,
 * because several of them are secrets.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: issue.path.join(".") || "(environment)",
        // zod's messages describe the expected shape, not the received value.
        reason: issue.message,
      })),
    );
  }
  const env = parsed.data;

  if (env.NODE_ENV === "production") {
    const missing = PRODUCTION_REQUIRED.filter((name) => env[name] === undefined);
    const problems: ConfigProblem[] = missing.map((variable) => ({
      variable,
      reason: "is required when NODE_ENV=production",
    }));
    // The simulator accepts anyone's messages: it must never face the internet.
    if (env.WHATSAPP_SIMULATOR === "on") {
      problems.push({ variable: "WHATSAPP_SIMULATOR", reason: "cannot be on when NODE_ENV=production" });
    }
    if (problems.length > 0) throw new ConfigError(problems);
  }
  if ((env.GOOGLE_CLIENT_ID === undefined) !== (env.GOOGLE_CLIENT_SECRET === undefined)) {
    throw new ConfigError([
      {
        variable: env.GOOGLE_CLIENT_ID === undefined ? "GOOGLE_CLIENT_ID" : "GOOGLE_CLIENT_SECRET",
        reason: "is required with GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET both set or both unset",
      },
    ]);
  }
  if (env.LANGSMITH_TRACING === "true" && env.LANGSMITH_API_KEY === undefined) {
    throw new ConfigError([
      { variable: "LANGSMITH_API_KEY", reason: "is required when LANGSMITH_TRACING=true" },
    ]);
  }
  // The embedded database belongs to one process: no other instance could work off its inbox.
  if (env.INBOX_WORKER === "off" && env.DATABASE_URL === undefined) {
    throw new ConfigError([
      {
        variable: "INBOX_WORKER",
        reason: "can be off only with DATABASE_URL (other instances run the turns)",
      },
    ]);
  }
  // Debug forwarding needs all three: where, whose, and the secret the developer's Memo checks.
  if (env.DEBUG_FORWARD_URL !== undefined || env.DEBUG_FORWARD_PHONES !== undefined) {
    const missing = (["DEBUG_FORWARD_URL", "DEBUG_FORWARD_PHONES", "DEBUG_FORWARD_SECRET"] as const).filter(
      (name) => env[name] === undefined || (name === "DEBUG_FORWARD_PHONES" && env[name].length === 0),
    );
    if (missing.length > 0) {
      throw new ConfigError(
        missing.map((variable) => ({
          variable,
          reason: "is required with DEBUG_FORWARD_URL and DEBUG_FORWARD_PHONES (debug forwarding)",
        })),
      );
    }
    // Real users' messages (of test phones, but real traffic) never cross the internet in clear.
    if (env.NODE_ENV === "production" && env.DEBUG_FORWARD_URL?.startsWith("http:")) {
      throw new ConfigError([
        { variable: "DEBUG_FORWARD_URL", reason: "must be an https URL when NODE_ENV=production" },
      ]);
    }
  }
  const simulator =
    env.NODE_ENV !== "production" &&
    (env.WHATSAPP_SIMULATOR === "on" ||
      (env.WHATSAPP_SIMULATOR === "auto" && env.WHATSAPP_ACCESS_TOKEN === undefined));

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    logRedact: env.LOG_REDACT === "on",
    database: env.DATABASE_URL
      ? {
          kind: "postgres",
          url: env.DATABASE_URL,
          poolMax: env.DATABASE_POOL_MAX,
          connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        }
      : { kind: "pglite", dataDir: env.DATA_DIR },
    dataDir: env.DATA_DIR,
    checkpointer: env.CHECKPOINTER,
    defaultTimeZone: env.DEFAULT_TIMEZONE,
    fastPath: env.FAST_PATH === "on",
    undoWindowMinutes: env.UNDO_WINDOW_MINUTES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
    whatsapp: {
      appSecret: env.WHATSAPP_APP_SECRET,
      accessToken: env.WHATSAPP_ACCESS_TOKEN,
      verifyToken: env.WHATSAPP_VERIFY_TOKEN,
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID ?? "simulator",
      graphUrl: env.WHATSAPP_GRAPH_URL.replace(/\/+$/, ""),
      apiVersion: env.WHATSAPP_API_VERSION,
      timeoutMs: env.WHATSAPP_TIMEOUT_MS,
      sendConcurrency: env.WHATSAPP_SEND_CONCURRENCY,
      simulator,
      simulatorAllowedHosts: env.SIMULATOR_ALLOWED_HOSTS,
      ...(env.DEBUG_FORWARD_URL && env.DEBUG_FORWARD_PHONES && env.DEBUG_FORWARD_SECRET
        ? {
            debugForward: {
              url: env.DEBUG_FORWARD_URL,
              phones: env.DEBUG_FORWARD_PHONES,
              secret: env.DEBUG_FORWARD_SECRET,
            },
          }
        : {}),
    },
    inbox: {
      worker: env.INBOX_WORKER === "on",
      concurrency: env.INBOX_CONCURRENCY,
      maxAgeMs: env.INBOX_MAX_AGE_HOURS * 60 * 60 * 1000,
      maxAttempts: env.INBOX_MAX_ATTEMPTS,
      leaseSeconds: env.INBOX_LEASE_SECONDS,
    },
    scheduler: {
      enabled: env.SCHEDULER === "on",
      digestTime: env.MORNING_DIGEST_HOUR,
      digestPolish: env.MORNING_DIGEST_POLISH === "on",
      templates: {
        ...(env.WHATSAPP_REMINDER_TEMPLATE ? { reminder: env.WHATSAPP_REMINDER_TEMPLATE } : {}),
        ...(env.WHATSAPP_DIGEST_TEMPLATE ? { digest: env.WHATSAPP_DIGEST_TEMPLATE } : {}),
        ...(env.WHATSAPP_WEEKLY_TEMPLATE ? { weekly: env.WHATSAPP_WEEKLY_TEMPLATE } : {}),
        // The simulator takes any template: invitations to a phone that never wrote reach it locally.
        ...(env.WHATSAPP_HOUSEHOLD_TEMPLATE || simulator
          ? { household: env.WHATSAPP_HOUSEHOLD_TEMPLATE ?? "memo_household" }
          : {}),
        languages: { he: env.WHATSAPP_TEMPLATE_LANGUAGE_HE, en: env.WHATSAPP_TEMPLATE_LANGUAGE_EN },
      },
      maxPerSecond: env.PROACTIVE_MAX_PER_SECOND,
      userGapMs: env.PROACTIVE_USER_GAP_SECONDS * 1000,
      retentionDays: env.RETENTION_DAYS,
    },
    household: {
      invitationDays: env.HOUSEHOLD_INVITATION_DAYS,
      tasksPerDay: env.HOUSEHOLD_TASKS_PER_DAY,
    },
    openai: { apiKey: env.OPENAI_API_KEY },
    memoryMode: env.MEMORY_MODE,
    retrievalWeights: env.MEMORY_RETRIEVAL_WEIGHTS,
    // Note embeddings need an OpenAI(-compatible) key; without one, notes are searched by words.
    embeddings:
      env.OPENAI_API_KEY && env.EMBEDDINGS_MODEL !== "off"
        ? {
            model: env.EMBEDDINGS_MODEL,
            apiKey: env.OPENAI_API_KEY,
            ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
          }
        : null,
    llm: {
      baseUrl: env.OPENAI_BASE_URL,
      models: {
        planner: env.LLM_PLANNER_MODEL,
        resolver: env.LLM_RESOLVER_MODEL,
        response: env.LLM_RESPONSE_MODEL,
        image: env.LLM_IMAGE_MODEL,
        memory: env.LLM_MEMORY_MODEL,
        transcribe: env.LLM_TRANSCRIBE_MODEL,
        fallback: env.LLM_FALLBACK_MODEL,
      },
      speech: {
        model: env.LLM_SPEECH_MODEL === "off" ? null : env.LLM_SPEECH_MODEL,
        voices: { en: env.LLM_SPEECH_VOICE, he: env.LLM_SPEECH_VOICE_HE ?? env.LLM_SPEECH_VOICE },
      },
      structuredOutputMethod: env.LLM_STRUCTURED_OUTPUT_METHOD,
      structuredOutputStrict: env.LLM_STRUCTURED_OUTPUT_STRICT === "on",
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxRetries: env.LLM_MAX_RETRIES,
      dailyBudgetUsd: env.LLM_DAILY_BUDGET_USD,
    },
    planTiers: env.PLAN_TIERS ?? ALL_IN_EVERY_TIER,
    google: {
      ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            oauth: {
              clientId: env.GOOGLE_CLIENT_ID,
              clientSecret: env.GOOGLE_CLIENT_SECRET,
              ...(env.GOOGLE_REDIRECT_URL ? { redirectUrl: env.GOOGLE_REDIRECT_URL } : {}),
            },
          }
        : {}),
      authUrl: env.GOOGLE_AUTH_URL,
      tokenUrl: env.GOOGLE_TOKEN_URL,
      apiRootUrl: env.GOOGLE_API_ROOT_URL,
    },
    ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
    ...(env.TOKEN_ENCRYPTION_KEY ? { tokenKey: keyBytes(env.TOKEN_ENCRYPTION_KEY) } : {}),
    tracing:
      env.LANGSMITH_TRACING === "true" && env.LANGSMITH_API_KEY
        ? {
            apiKey: env.LANGSMITH_API_KEY,
            endpoint: env.LANGSMITH_ENDPOINT,
            project: env.LANGSMITH_PROJECT,
            includeContent: env.LANGSMITH_INCLUDE_CONTENT === "true",
          }
        : null,
  };
}

/** TOKEN_ENCRYPTION_KEY's 32 bytes, from hex or base64. */
function keyBytes(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
}
