import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer, checkpointThreads } from "../../src/db/checkpointer.js";
import { PgLlmUsageRepository } from "../../src/db/repositories/llmUsageRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { backends, type TestDatabase } from "../support/db.js";
import { countQueries } from "../support/queryCounter.js";

describe.each(backends)("UserRepository on $name", (backend) => {
  let db: TestDatabase;
  let users: PgUserRepository;
  let n = 0;
  /** A phone no other test in this suite uses. */
  const nextPhone = () => `97250000${String(++n).padStart(4, "0")}`;

  beforeAll(async () => {
    db = await backend.create();
    users = new PgUserRepository(db.pool);
  });
  afterAll(async () => db?.close());

  it("creates a user on first contact with the spec's defaults", async () => {
    const phone = nextPhone();
    expect(await users.get(phone)).toBeNull();
    const user = await users.getOrCreate(phone);
    expect(user).toMatchObject({
      phone,
      timeZone: "Asia/Jerusalem",
      language: null,
      planTier: "free",
      googleConnected: false,
      digestEnabled: true,
      digestLocalTime: "08:00",
      capabilities: { calendar: true, gmail: true, database: true, secondBrain: true },
      lastInboundAt: null,
    });
    expect(Date.parse(user.createdAt)).not.toBeNaN();
    expect(await users.get(phone)).toEqual(user);
  });

  it("returns an existing user unchanged instead of applying new defaults", async () => {
    const phone = nextPhone();
    await users.getOrCreate(phone, { timeZone: "America/New_York", language: "en", displayName: "Dana" });
    const again = await users.getOrCreate(phone, { timeZone: "Asia/Kolkata", language: "he" });
    expect(again).toMatchObject({ timeZone: "America/New_York", language: "en", displayName: "Dana" });
  });

  it("updates only the fields given and moves updatedAt", async () => {
    const phone = nextPhone();
    const created = await users.getOrCreate(phone);
    await new Promise((r) => setTimeout(r, 5));
    const updated = await users.update(phone, {
      language: "he",
      digestLocalTime: "07:30",
      capabilities: { ...created.capabilities, gmail: false },
    });
    expect(updated).toMatchObject({ language: "he", digestLocalTime: "07:30", timeZone: "Asia/Jerusalem" });
    expect(updated!.capabilities.gmail).toBe(false);
    expect(Date.parse(updated!.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(await users.update(nextPhone(), { language: "en" })).toBeNull();
  });

  it("keeps the latest inbound time even when deliveries arrive out of order", async () => {
    const phone = nextPhone();
    await users.getOrCreate(phone);
    await users.recordInbound(phone, new Date("2026-11-22T10:00:00Z"));
    await users.recordInbound(phone, new Date("2026-11-22T09:00:00Z"));
    expect((await users.get(phone))!.lastInboundAt).toBe("2026-11-22T10:00:00.000Z");
  });

  it("records an inbound message and says, in the same statement, whether a question is open and what today's LLM calls cost", async () => {
    const durable = await createCheckpointer("postgres", db.pool);
    const withThreads = new PgUserRepository(db.pool, { checkpoints: checkpointThreads(durable, db.pool) });
    const phone = nextPhone();
    const other = nextPhone();
    await users.getOrCreate(phone, { timeZone: "America/New_York" });
    await users.getOrCreate(other);
    const usage = new PgLlmUsageRepository(db.pool);
    // 03:00 UTC is still the 21st in New York: the 21st's cost is today's, the 22nd's is not.
    const now = new Date("2026-11-22T03:00:00Z");
    await usage.add(phone, new Date("2026-11-21T15:00:00Z"), {
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0.25,
    });
    await usage.add(phone, new Date("2026-11-22T12:00:00Z"), {
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0.5,
    });

    const counter = countQueries();
    const record = await withThreads.recordInbound(phone, now, now);
    counter.restore();
    expect(counter.statements).toHaveLength(1);
    expect(record).toMatchObject({
      user: { phone, lastInboundAt: now.toISOString() },
      threadStored: false,
      spentToday: { day: "2026-11-21", costUsd: 0.25 },
    });
    // A user with no usage that day spent nothing; their plan tier comes with it (its budget).
    expect((await withThreads.recordInbound(other, now, now))?.spentToday).toEqual({
      day: "2026-11-22",
      costUsd: 0,
      planTier: "free",
    });

    // Another thread's checkpoint is not this one's; this thread's own is.
    const put = async (threadId: string) =>
      db.pool.query(
        `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, checkpoint, metadata)
         VALUES ($1, '', 'c1', '{}'::jsonb, '{}'::jsonb)`,
        [threadId],
      );
    await put(other);
    expect((await withThreads.recordInbound(phone, now))?.threadStored).toBe(false);
    await put(phone);
    const stored = await withThreads.recordInbound(phone, now);
    expect(stored?.threadStored).toBe(true);
    expect(stored?.spentToday).toBeUndefined();
    expect(await withThreads.recordInbound(nextPhone(), now, now)).toBeNull();
  });

  it("leaves the checkpoint tables out of the statement when the checkpointer keeps none (CHECKPOINTER=memory)", async () => {
    const phone = nextPhone();
    await users.getOrCreate(phone);
    const counter = countQueries();
    const record = await users.recordInbound(phone, new Date(), new Date());
    counter.restore();
    expect(record?.threadStored).toBeUndefined();
    expect(record?.spentToday?.costUsd).toBe(0);
    expect(counter.statements).toHaveLength(1);
    expect(counter.statements[0]).not.toContain("checkpoints");
  });

  it("rejects values the schema forbids", async () => {
    await expect(users.getOrCreate("+972-50")).rejects.toThrow();
    const phone = nextPhone();
    await users.getOrCreate(phone);
    await expect(users.update(phone, { digestLocalTime: "25:00" })).rejects.toThrow();
  });

  it("never touches another user's row", async () => {
    const a = nextPhone();
    const b = nextPhone();
    await users.getOrCreate(a, { language: "en" });
    await users.getOrCreate(b, { language: "he" });
    await users.update(a, { displayName: "A" });
    expect((await users.get(b))!.displayName).toBeNull();
    expect((await users.get(b))!.language).toBe("he");
  });
});
