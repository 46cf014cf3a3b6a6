import { afterEach, describe, expect, it } from "vitest";
import { createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";

const PHONE = "972501234567";
let h: SchedulerHarness;
afterEach(async () => h?.close());

describe("scheduler smoke", () => {
  it("rings a one-time reminder once, at its time", async () => {
    h = await createSchedulerHarness({ start: "2026-03-02T07:00:00Z" });
    await h.user(PHONE);
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    await h.pass();
    expect(h.sentTo(PHONE)).toEqual([]);
    h.at("2026-03-02T07:02:00Z");
    const report = await h.pass();
    expect(report.sent).toBe(1);
    await h.pass();
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stretch"]);
    const [row] = await h.ledger(PHONE);
    expect(row).toMatchObject({ status: "sent", via: "text", kind: "reminder" });
  });
});
