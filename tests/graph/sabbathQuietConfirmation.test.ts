// A reminder set for a time inside Shabbat while Shabbat quiet is on: the confirmation says it will
// be sent after havdalah (the scheduler holds it until then), in English and Hebrew; outside a
// window, or with the setting off, the confirmation is as before.
import { afterEach, describe, expect, it } from "vitest";
import { PHONE, createHarness, type Harness } from "../support/memoHarness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Thursday 5 March 2026, 12:00 in Jerusalem (the harness clock): Shabbat ends Sat 7 March about 18:20. */
async function harness(sabbathQuiet: boolean, language: "en" | "he" = "en") {
  h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language });
  await h.users.update(PHONE, { sabbathQuiet });
  return h;
}

describe("the confirmation of a reminder that Shabbat quiet will hold", () => {
  it("says it will be sent after havdalah, and says nothing for a time outside Shabbat", async () => {
    const hh = await harness(true);
    const held = await hh.say("remind me on Saturday at 10 to call mom");
    const [confirmation, line] = held.text.split("\n");
    expect(confirmation).toContain("10:00");
    expect(confirmation).toContain("call mom");
    expect(line).toMatch(/^\(Shabbat quiet is on: I'll send it after havdalah, .*Sat.*18:\d\d\.\)$/u);
    const sunday = await hh.say("remind me on Sunday at 10 to call dad");
    expect(sunday.text).not.toContain("Shabbat");
  });

  it("in Hebrew", async () => {
    const hh = await harness(true, "he");
    const held = await hh.say("תזכיר לי בשבת ב-10 להתקשר לאמא");
    expect(held.text).toMatch(/\n\(שקט בשבת פועל: אשלח אותה אחרי ההבדלה, .*18:\d\d\.\)$/u);
  });

  it("says nothing with Shabbat quiet off", async () => {
    const hh = await harness(false);
    const reply = await hh.say("remind me on Saturday at 10 to call mom");
    expect(reply.text).toContain("call mom");
    expect(reply.text).not.toContain("Shabbat");
  });
});
