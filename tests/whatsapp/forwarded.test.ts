import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWhatsAppHarness, textMessage, type WhatsAppHarness } from "../support/whatsappHarness.js";

/**
 * A forwarded message was written by someone else (D14): what it asks for is offered back and
 * done only on the user's yes, even a command the fast path reads without a model (D12).
 */
describe("a forwarded message asks before it changes anything", () => {
  let h: WhatsAppHarness;
  beforeAll(async () => {
    h = await createWhatsAppHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const tasksOf = async (phone: string) =>
    (
      await h.db.pool.query<{ text: string }>("SELECT text FROM tasks WHERE user_phone = $1 ORDER BY text", [
        phone,
      ])
    ).rows.map((r) => r.text);

  const forwarded = (phone: string, body: string) => ({
    ...textMessage(phone, body, h.clock.now()),
    context: { forwarded: true },
  });

  async function say(phone: string, message: ReturnType<typeof textMessage>, sent: number) {
    await h.deliver(message);
    await h.graphApi.waitForSent(sent, 10_000);
    await h.idle();
    return h.graphApi.textsTo(phone).at(-1) ?? "";
  }

  it.each([
    {
      language: "en" as const,
      phone: "972500000301",
      command: "add task buy milk",
      asks: "This message was forwarded, so I'm checking with you before I act on it.",
      no: "no",
      yes: "yes",
    },
    {
      language: "he" as const,
      phone: "972500000302",
      command: "תוסיף משימה לקנות חלב",
      asks: "ההודעה הזאת הועברה, אז אני בודק איתך לפני שאני עושה משהו לפיה.",
      no: "לא",
      yes: "כן",
    },
  ])("$language: no adds nothing, yes adds it; the same words typed run at once", async (c) => {
    await h.knownUser(c.phone, c.language);
    const before = h.graphApi.sent.length;
    const question = await say(c.phone, forwarded(c.phone, c.command), before + 1);
    expect(question.startsWith(c.asks)).toBe(true);
    expect(await tasksOf(c.phone)).toEqual([]);

    await say(c.phone, textMessage(c.phone, c.no, h.clock.now()), before + 2);
    expect(await tasksOf(c.phone)).toEqual([]);

    const again = await say(c.phone, forwarded(c.phone, c.command), before + 3);
    expect(again.startsWith(c.asks)).toBe(true);
    await say(c.phone, textMessage(c.phone, c.yes, h.clock.now()), before + 4);
    expect(await tasksOf(c.phone)).toHaveLength(1);

    // Typed by the user, the same command is the user's own request: done without a question.
    const typed = await say(c.phone, textMessage(c.phone, c.command, h.clock.now()), before + 5);
    expect(typed).not.toContain(c.asks);
    expect(await tasksOf(c.phone)).toHaveLength(2);
  });

  it("a forwarded 'yes' never answers the open question: it is left, nothing is done", async () => {
    const phone = "972500000304";
    await h.knownUser(phone, "en");
    const before = h.graphApi.sent.length;
    const question = await say(phone, forwarded(phone, "add task buy milk"), before + 1);
    expect(question).toContain("forwarded");
    const reply = await say(phone, forwarded(phone, "yes"), before + 2);
    expect(reply).toContain("I left my earlier question unanswered");
    expect(await tasksOf(phone)).toEqual([]);
  });

  it("a forwarded message stays out of the history that facts and summaries are made of", async () => {
    const phone = "972500000305";
    await h.knownUser(phone, "he");
    const before = h.graphApi.sent.length;
    await say(phone, forwarded(phone, "אני גר בפריז"), before + 1);
    await say(phone, textMessage(phone, "אני גר בחיפה", h.clock.now()), before + 2);
    const { rows } = await h.db.pool.query<{ content: string }>(
      "SELECT content FROM conversation_messages WHERE user_phone = $1 AND role = 'user' ORDER BY id",
      [phone],
    );
    expect(rows.map((r) => r.content)).toEqual(["אני גר בחיפה"]);
  });

  it("a forwarded message that only reads asks nothing", async () => {
    const phone = "972500000303";
    await h.knownUser(phone, "en");
    const before = h.graphApi.sent.length;
    const reply = await say(phone, forwarded(phone, "my tasks"), before + 1);
    expect(reply).not.toContain("forwarded");
  });
});
