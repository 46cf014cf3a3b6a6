import { describe, expect, it } from "vitest";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage } from "../support/whatsappHarness.js";

/**
 * "my Hebrew birthday is 3 Nisan" through WhatsApp (issue 36): saved as a setting with a
 * confirmation, then "on my Hebrew birthday" is read in a reminder and rings on the day.
 */

const PHONE = "972501110077";
let h: SchedulerHarness;
const shared = sharedDatabase(() => h);

async function say(text: string): Promise<string> {
  const count = h.graphApi.sent.length;
  await h.deliver(textMessage(PHONE, text, h.clock.now()));
  await h.graphApi.waitForSent(count + 1);
  await h.idle();
  return h.sentTo(PHONE).at(-1)!;
}

describe("the user's Hebrew birthday", () => {
  it("is saved from 'my Hebrew birthday is 3 Nisan' and read in 'on my Hebrew birthday'", async () => {
    h = await createSchedulerHarness({
      db: shared.db,
      start: "2026-11-28T10:00:00Z",
      env: { FAST_PATH: "on" },
    });
    await h.user(PHONE, { timeZone: "Asia/Jerusalem" });
    await h.memo.users.update(PHONE, { digestEnabled: false });
    // 3 Nisan 5787 is Saturday 10 April 2027.
    expect(await say("my Hebrew birthday is 3 Nisan")).toBe(
      "Saved: your Hebrew birthday is 3 Nisan. Next: Sat 10 Apr 2027.",
    );
    expect((await h.memo.users.get(PHONE))?.hebrewBirthday).toEqual({ month: 1, day: 3 });
    await say("remind me on my Hebrew birthday at 8 to donate blood");
    const [task] = await h.tasks.list(PHONE, { completed: false });
    expect(task).toMatchObject({ text: "donate blood", nextFireAt: "2027-04-10T05:00:00.000Z" });
  });

  it("is saved from the Hebrew 'יום ההולדת העברי שלי ב-ג' בניסן'", async () => {
    h = await createSchedulerHarness({
      db: shared.db,
      start: "2026-11-28T10:00:00Z",
      env: { FAST_PATH: "on" },
    });
    await h.user(PHONE, { timeZone: "Asia/Jerusalem", language: "he" });
    await h.memo.users.update(PHONE, { digestEnabled: false });
    expect(await say("יום ההולדת העברי שלי ב-ג' בניסן")).toContain("שמרתי: יום ההולדת העברי שלך בג׳ בניסן");
    expect((await h.memo.users.get(PHONE))?.hebrewBirthday).toEqual({ month: 1, day: 3 });
  });
});
