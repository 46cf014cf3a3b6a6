import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { backends, type TestDatabase } from "../support/db.js";

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
