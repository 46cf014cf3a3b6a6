import type pg from "pg";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createApp, type AppDeps } from "../../src/app/httpApp.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { InFlightWork } from "../../src/utils/inFlightWork.js";
import { createLogger } from "../../src/utils/logger.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { captureLogs } from "../support/logs.js";

describe("HTTP app", () => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  async function app(overrides: Partial<AppDeps> = {}, options: { migrated?: boolean } = {}) {
    db = await pgliteBackend.create(options);
    return createApp({
      logger: createLogger("silent"),
      pool: db.pool,
      migrations: MIGRATIONS,
      inFlight: new InFlightWork(),
      isShuttingDown: () => false,
      ...overrides,
    });
  }

  it("answers /healthz and /readyz when the database is migrated", async () => {
    const server = await app();
    await request(server).get("/healthz").expect(200, { status: "ok" });
    await request(server).get("/readyz").expect(200, { status: "ready" });
  });

  it("is not ready while migrations are pending", async () => {
    const server = await app({}, { migrated: false });
    const res = await request(server).get("/readyz").expect(503);
    expect(res.body).toEqual({
      status: "migrations_pending",
      pending: [
        "users",
        "extensions",
        "conversation_windows",
        "whatsapp",
        "inbox_leases",
        "tasks_lists",
        "scheduler",
        "google",
        "calendar",
        "memory",
        "llm_usage",
        "undo",
        "outbound_local_id",
        "households",
        "household_sharing",
        "household_consent",
        "attendees_contacts",
        "memory_validity",
        "conversation_chunks",
        "memory_episodes",
        "two_calendars",
        "weekly_review",
        "task_completions",
        "documents",
        "voice_replies",
      ],
    });
  });

  it("is not ready when the database is gone, but stays alive", async () => {
    const server = await app();
    await db!.close();
    db = undefined;
    const res = await request(server).get("/readyz").expect(503);
    expect(res.body).toMatchObject({ status: "database_unavailable" });
    await request(server).get("/healthz").expect(200);
  });

  it("says only 'database_unavailable' to the caller, and logs the database's error once per outage", async () => {
    const { logger, lines } = captureLogs();
    const refusing = {
      query: () =>
        Promise.reject(
          Object.assign(new Error('database "memo_prod" is not currently accepting connections'), {
            code: "57P03",
          }),
        ),
    } as unknown as pg.Pool;
    const server = await app({ logger, pool: refusing });
    for (let probe = 0; probe < 3; probe++) {
      const res = await request(server).get("/readyz").expect(503);
      expect(res.body).toEqual({ status: "database_unavailable" });
      expect(res.text).not.toContain("memo_prod");
      expect(res.text).not.toContain("accepting connections");
    }
    const logged = lines().filter((l) => l.event === "READINESS_FAILED");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 40,
      err: { code: "57P03", message: 'database "memo_prod" is not currently accepting connections' },
    });
  });

  it("is not ready once shutdown has begun", async () => {
    const server = await app({ isShuttingDown: () => true });
    await request(server).get("/readyz").expect(503, { status: "shutting_down" });
  });

  it("turns a failing request into a 500 JSON body without a stack, logged with its request id", async () => {
    const { logger, lines } = captureLogs();
    const server = await app({
      logger,
      extraRoutes: (a) =>
        a.get("/boom", () => {
          throw new Error("secret internals at /src/thing.ts:12");
        }),
    });
    const res = await request(server).get("/boom").set("x-request-id", "req-123").expect(500);
    expect(res.body).toEqual({ error: "internal_error", requestId: "req-123" });
    expect(res.text).not.toContain("internals");
    expect(res.headers["x-request-id"]).toBe("req-123");
    const logged = lines().find((l) => l.msg === "request failed");
    expect(logged).toMatchObject({
      requestId: "req-123",
      path: "/boom",
      err: { message: "secret internals at /src/thing.ts:12" },
    });
  });

  it("rejects forged request ids and makes its own", async () => {
    const server = await app();
    for (const forged of ['x" "level":60', "a".repeat(129)]) {
      const res = await request(server).get("/healthz").set("x-request-id", forged);
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("answers unknown routes with a JSON 404", async () => {
    const server = await app();
    const res = await request(server).get("/nope").expect(404);
    expect(res.body).toMatchObject({ error: "not_found" });
  });

  it("counts requests in flight until their response closes", async () => {
    const inFlight = new InFlightWork();
    let seen = -1;
    const server = await app({
      inFlight,
      extraRoutes: (a) =>
        a.get("/count", (_req, res) => {
          seen = inFlight.size;
          res.json({});
        }),
    });
    await request(server).get("/count").expect(200);
    expect(seen).toBe(1);
    expect(inFlight.size).toBe(0);
  });
});
