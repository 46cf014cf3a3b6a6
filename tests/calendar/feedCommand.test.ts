// "calendar link" in chat: recognized with no LLM in both languages, and only as a whole message.
import { describe, expect, it } from "vitest";
import { createMetaExecutor } from "../../src/graph/capabilities/core/coreExecutors.js";
import { recognizeGoogleCommand } from "../../src/nlu/googleCommands.js";

describe("asking for the calendar link", () => {
  it.each([
    "calendar link",
    "Send me my calendar link",
    "my ical feed",
    "how do I see my calendar on my phone?",
    "subscribe to my calendar",
    "sync my calendar with google calendar",
    "קישור ליומן",
    "שלח לי את הקישור ליומן שלי",
    "איך לראות את היומן שלי בטלפון",
    "לסנכרן את היומן ליומן גוגל",
  ])("%s → calendar_feed", (text) => {
    expect(recognizeGoogleCommand(text)).toBe("calendar_feed");
  });

  it.each([
    "what's on my calendar tomorrow",
    "add a link to the calendar event",
    "calendar link for the team meeting please send to Dana",
    "מה יש לי ביומן מחר",
  ])("%s is not the command", (text) => {
    expect(recognizeGoogleCommand(text)).toBeNull();
  });
});

describe("the calendar link reply", () => {
  const context = (language: "he" | "en") =>
    ({ language, phone: "972501234567" }) as unknown as Parameters<
      ReturnType<typeof createMetaExecutor>["execute"]
    >[2];
  const connector = (status: "connected" | "none") => ({
    connectLink: () => Promise.resolve(null),
    disconnect: () => Promise.resolve(false),
    status: () => Promise.resolve(status),
  });
  const link = (phone: string) => `https://memo.example.com/calendar/${phone}/sig.ics`;

  it("gives users of the built-in calendar their private feed, in their language", async () => {
    const meta = createMetaExecutor(() => ["calendar"], connector("none"), link);
    const en = await meta.execute("meta.calendar_feed", {}, context("en"));
    expect((en.data as { text: string }).text).toContain(
      "https://memo.example.com/calendar/972501234567/sig.ics",
    );
    expect((en.data as { text: string }).text).toMatch(/^Here is your private calendar link/);
    const he = await meta.execute("meta.calendar_feed", {}, context("he"));
    expect((he.data as { text: string }).text).toMatch(/^זה הקישור הפרטי ליומן שלך/);
  });

  it("tells Google users their calendar is already everywhere, and says so when no feed exists", async () => {
    const google = createMetaExecutor(() => ["calendar"], connector("connected"), link);
    const reply = await google.execute("meta.calendar_feed", {}, context("en"));
    expect((reply.data as { text: string }).text).toMatch(/^Your calendar is your Google Calendar/);
    const none = createMetaExecutor(() => ["calendar"]);
    const plain = await none.execute("meta.calendar_feed", {}, context("en"));
    expect((plain.data as { text: string }).text).toBe("I can't make a calendar link on this server.");
  });
});
