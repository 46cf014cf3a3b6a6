import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";
import { PRODUCTION_ENV } from "../support/env.js";

function problemsOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("runs with no environment at all: port 3000, embedded database in ./data, Postgres checkpointer", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.env).toBe("development");
    expect(config.database).toEqual({ kind: "pglite", dataDir: "./data" });
    expect(config.checkpointer).toBe("postgres");
    expect(config.shutdownTimeoutMs).toBe(10_000);
  });

  it("lets PORT, DATA_DIR and CHECKPOINTER override the defaults", () => {
    const config = loadConfig({ PORT: "8080", DATA_DIR: "/tmp/memo", CHECKPOINTER: "memory" });
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({ kind: "pglite", dataDir: "/tmp/memo" });
    expect(config.checkpointer).toBe("memory");
  });

  it("gives new users Asia/Jerusalem unless DEFAULT_TIMEZONE names another zone", () => {
    expect(loadConfig({}).defaultTimeZone).toBe("Asia/Jerusalem");
    expect(loadConfig({ DEFAULT_TIMEZONE: "America/New_York" }).defaultTimeZone).toBe("America/New_York");
    expect(problemsOf({ DEFAULT_TIMEZONE: "Mars/Olympus" }).problems).toEqual([
      { variable: "DEFAULT_TIMEZONE", reason: "must be an IANA time zone such as Asia/Jerusalem" },
    ]);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: " " }).database.kind).toBe("pglite");
  });

  it("uses Postgres when DATABASE_URL is set", () => {
    const config = loadConfig({
      DATABASE_URL: "postgresql://u:p@db.example:6543/postgres",
      DATABASE_POOL_MAX: "4",
    });
    expect(config.database).toMatchObject({
      kind: "postgres",
      url: "postgresql://u:p@db.example:6543/postgres",
      poolMax: 4,
    });
  });

  it.each(["abc", "0", "65536", "80.5", "-1"])("rejects PORT=%s naming PORT", (port) => {
    const error = problemsOf({ PORT: port });
    expect(error.problems).toEqual([{ variable: "PORT", reason: "must be a whole number from 1 to 65535" }]);
    expect(error.message).toContain("PORT");
  });

  it("names every bad variable at once", () => {
    const error = problemsOf({ PORT: "x", CHECKPOINTER: "redis", SHUTDOWN_TIMEOUT_MS: "soon" });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      "CHECKPOINTER",
      "PORT",
      "SHUTDOWN_TIMEOUT_MS",
    ]);
  });

  it("in production, names each missing production setting instead of falling back", () => {
    const error = problemsOf({ NODE_ENV: "production" });
    expect(error.problems.map((p) => p.variable)).toEqual([
      "DATABASE_URL",
      "WHATSAPP_APP_SECRET",
      "WHATSAPP_ACCESS_TOKEN",
      "WHATSAPP_VERIFY_TOKEN",
      "WHATSAPP_PHONE_NUMBER_ID",
      "OPENAI_API_KEY",
      "TOKEN_ENCRYPTION_KEY",
    ]);
  });

  it("reads TOKEN_ENCRYPTION_KEY as 32 bytes, hex or base64, and refuses other lengths", () => {
    const hex = "ab".repeat(32);
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: hex }).tokenKey).toEqual(Buffer.from(hex, "hex"));
    const b64 = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: b64 }).tokenKey).toEqual(Buffer.alloc(32, 7));
    expect(problemsOf({ TOKEN_ENCRYPTION_KEY: "short" }).problems.map((p) => p.variable)).toEqual([
      "TOKEN_ENCRYPTION_KEY",
    ]);
  });

  it("needs the Google client id and secret together", () => {
    expect(loadConfig({}).google.oauth).toBeUndefined();
    expect(loadConfig({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google.oauth).toEqual({
      clientId: "id",
      clientSecret: "s",
    });
    expect(problemsOf({ GOOGLE_CLIENT_ID: "id" }).problems.map((p) => p.variable)).toEqual([
      "GOOGLE_CLIENT_SECRET",
    ]);
  });

  it("in production, starts when the settings are given", () => {
    const config = loadConfig(PRODUCTION_ENV);
    expect(config.database.kind).toBe("postgres");
    // Production never mounts the simulator.
    expect(config.whatsapp.simulator).toBe(false);
  });

  it("in production, refuses to turn the simulator on", () => {
    const error = problemsOf({
      ...PRODUCTION_ENV,
      WHATSAPP_SIMULATOR: "on",
    });
    expect(error.problems.map((p) => p.variable)).toEqual(["WHATSAPP_SIMULATOR"]);
  });

  it("turns the simulator on without an access token outside production, and off with one", () => {
    expect(loadConfig({}).whatsapp).toMatchObject({
      simulator: true,
      phoneNumberId: "simulator",
      graphUrl: "https://graph.facebook.com",
      apiVersion: "v23.0",
      timeoutMs: 10_000,
    });
    expect(loadConfig({ WHATSAPP_ACCESS_TOKEN: "t" }).whatsapp.simulator).toBe(false);
    expect(loadConfig({ WHATSAPP_ACCESS_TOKEN: "t", WHATSAPP_SIMULATOR: "on" }).whatsapp.simulator).toBe(
      true,
    );
    expect(loadConfig({ WHATSAPP_SIMULATOR: "off" }).whatsapp.simulator).toBe(false);
    expect(loadConfig({ WHATSAPP_GRAPH_URL: "http://127.0.0.1:9999/" }).whatsapp.graphUrl).toBe(
      "http://127.0.0.1:9999",
    );
  });

  it("has inbox defaults and reads their overrides", () => {
    expect(loadConfig({}).inbox).toEqual({
      worker: true,
      concurrency: 8,
      maxAgeMs: 24 * 3600_000,
      maxAttempts: 3,
      leaseSeconds: 30,
    });
    expect(loadConfig({ INBOX_WORKER: "off", DATABASE_URL: "postgresql://db/memo" }).inbox.worker).toBe(
      false,
    );
    expect(loadConfig({}).fastPath).toBe(true);
    expect(loadConfig({ FAST_PATH: "off" }).fastPath).toBe(false);
    expect(problemsOf({ FAST_PATH: "maybe" }).problems.map((p) => p.variable)).toEqual(["FAST_PATH"]);
    // PGlite belongs to one process: nobody else could run its turns.
    expect(problemsOf({ INBOX_WORKER: "off" }).problems.map((p) => p.variable)).toEqual(["INBOX_WORKER"]);
    expect(
      loadConfig({
        INBOX_CONCURRENCY: "2",
        INBOX_MAX_AGE_HOURS: "48",
        INBOX_MAX_ATTEMPTS: "5",
        INBOX_LEASE_SECONDS: "5",
      }).inbox,
    ).toEqual({
      worker: true,
      concurrency: 2,
      maxAgeMs: 48 * 3600_000,
      maxAttempts: 5,
      leaseSeconds: 5,
    });
    const error = problemsOf({
      INBOX_CONCURRENCY: "0",
      WHATSAPP_API_VERSION: "23",
      WHATSAPP_PHONE_NUMBER_ID: "abc",
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      "INBOX_CONCURRENCY",
      "WHATSAPP_API_VERSION",
      "WHATSAPP_PHONE_NUMBER_ID",
    ]);
  });

  it("never prints a secret's value in its messages", () => {
    const secret = "sup3r-s3cret-value";
    const error = problemsOf({
      DATABASE_URL: `mysql://root:${secret}@host/db`,
      WHATSAPP_APP_SECRET: secret,
      PORT: secret,
      LOG_LEVEL: secret,
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual(["DATABASE_URL", "LOG_LEVEL", "PORT"]);
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error.problems)).not.toContain(secret);
  });

  it("has LLM defaults: no base URL, node models from llm-config, gpt-4o fallback, jsonSchema, 30 s, 2 retries", () => {
    expect(loadConfig({}).llm).toEqual({
      baseUrl: undefined,
      models: {
        planner: undefined,
        resolver: undefined,
        response: undefined,
        image: undefined,
        transcribe: "gpt-4o-mini-transcribe",
        fallback: "gpt-4o",
      },
      speech: { model: "gpt-4o-mini-tts", voices: { en: "coral", he: "coral" } },
      structuredOutputMethod: "jsonSchema",
      structuredOutputStrict: true,
      timeoutMs: 30_000,
      maxRetries: 2,
      dailyBudgetUsd: 2,
    });
  });

  it("turns spoken answers off with LLM_SPEECH_MODEL=off", () => {
    expect(loadConfig({ LLM_SPEECH_MODEL: "off" }).llm.speech.model).toBeNull();
  });

  it("reads the LLM overrides", () => {
    const config = loadConfig({
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      LLM_PLANNER_MODEL: "o1",
      LLM_RESOLVER_MODEL: "llama3.1:8b",
      LLM_RESPONSE_MODEL: "gpt-4.1-nano",
      LLM_IMAGE_MODEL: "gpt-4o-mini",
      LLM_TRANSCRIBE_MODEL: "whisper-1",
      LLM_SPEECH_MODEL: "tts-1",
      LLM_SPEECH_VOICE: "alloy",
      LLM_SPEECH_VOICE_HE: "nova",
      LLM_FALLBACK_MODEL: "gpt-4o-mini",
      LLM_STRUCTURED_OUTPUT_METHOD: "functionCalling",
      LLM_STRUCTURED_OUTPUT_STRICT: "off",
      LLM_TIMEOUT_MS: "5000",
      LLM_MAX_RETRIES: "0",
      LLM_DAILY_BUDGET_USD: "0.25",
    });
    expect(config.llm).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      models: {
        planner: "o1",
        resolver: "llama3.1:8b",
        response: "gpt-4.1-nano",
        image: "gpt-4o-mini",
        transcribe: "whisper-1",
        fallback: "gpt-4o-mini",
      },
      speech: { model: "tts-1", voices: { en: "alloy", he: "nova" } },
      structuredOutputMethod: "functionCalling",
      structuredOutputStrict: false,
      timeoutMs: 5000,
      maxRetries: 0,
      dailyBudgetUsd: 0.25,
    });
  });

  it("names each bad LLM variable without echoing its value", () => {
    const error = problemsOf({
      OPENAI_BASE_URL: "ftp://files.example/v1",
      LLM_PLANNER_MODEL: "gpt 4o",
      LLM_STRUCTURED_OUTPUT_METHOD: "xml",
      LLM_TIMEOUT_MS: "soon",
      LLM_MAX_RETRIES: "11",
      LLM_DAILY_BUDGET_USD: "-1",
    });
    expect(error.problems).toEqual(
      expect.arrayContaining([
        {
          variable: "LLM_DAILY_BUDGET_USD",
          reason: "must be an amount in USD such as 2 or 0.5 (0: no limit)",
        },
        { variable: "OPENAI_BASE_URL", reason: "must be an http:// or https:// URL" },
        { variable: "LLM_PLANNER_MODEL", reason: "must be a model name without spaces" },
        { variable: "LLM_TIMEOUT_MS", reason: "must be a whole number from 10 to 600000" },
        { variable: "LLM_MAX_RETRIES", reason: "must be a whole number from 0 to 10" },
      ]),
    );
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      "LLM_DAILY_BUDGET_USD",
      "LLM_MAX_RETRIES",
      "LLM_PLANNER_MODEL",
      "LLM_STRUCTURED_OUTPUT_METHOD",
      "LLM_TIMEOUT_MS",
      "OPENAI_BASE_URL",
    ]);
    expect(error.message).not.toContain("ftp://files.example");
    expect(error.message).not.toContain("xml");
  });
});
