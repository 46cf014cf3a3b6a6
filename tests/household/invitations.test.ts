// Households (issue 23), the first part: inviting a person, their answer (Accept, Decline, "stop"),
// who is in the household, leaving and removing, in English and Hebrew, through the webhook with
// the scheduler's delivery ledger sending every message to the other person.
import { describe, expect, it } from "vitest";
import { t } from "../../src/messages/index.js";
import { eraseUserData } from "../../src/db/repositories/userDataRepository.js";
import type { SentMessage } from "../support/fakeGraphApi.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { DANA, from, RINA, say, tap, YOSSI } from "./talk.js";

const TEMPLATES = { WHATSAPP_HOUSEHOLD_TEMPLATE: "memo_household", WHATSAPP_TEMPLATE_LANGUAGE_EN: "en_US" };

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

async function harness(env: Record<string, string> = TEMPLATES): Promise<SchedulerHarness> {
  h = await createSchedulerHarness({ db: shared.db, env });
  return h;
}

/** A tap on a template's quick-reply button (type `button`, its payload). */
const tapTemplateButton = (h: SchedulerHarness, phone: string, payload: string, title: string) =>
  from(h, phone, { type: "button", button: { payload, text: title } });

const tapButton = tap;

type TemplateBody = {
  template: {
    name: string;
    language: { code: string };
    components: (
      { type: "body"; parameters: { text: string }[] } | { type: "button"; parameters: { payload: string }[] }
    )[];
  };
};

/** The last message sent to `phone`. */
function lastTo(h: SchedulerHarness, phone: string): SentMessage {
  const all = h.graphApi.sent.filter((m) => m.to.replace(/\D/g, "") === phone);
  const last = all.at(-1);
  if (!last) throw new Error(`nothing was sent to ${phone}`);
  return last;
}

/** The button payloads of a template message. */
function templateButtons(message: SentMessage): string[] {
  const { template } = message.body as TemplateBody;
  return template.components.flatMap((c) => (c.type === "button" ? [c.parameters[0]!.payload] : []));
}

describe("inviting someone to a household", () => {
  it("invite → the template with Accept/Decline → accept → both are in it → leave", async () => {
    const h = await harness();
    await h.user(YOSSI);
    const reply = await say(h, YOSSI, "add Dana 050-1234567 to my household");
    expect(reply).toEqual([expect.stringContaining("I've invited Dana")]);

    // Dana never wrote to Memo: outside the 24-hour window, the approved template goes.
    const invitation = lastTo(h, DANA);
    const { template } = invitation.body as TemplateBody;
    expect(template.name).toBe("memo_household");
    expect(h.sentTo(DANA)[0]).toContain("+972 52 111 0001");
    const [accept, decline] = templateButtons(invitation);
    expect(accept).toMatch(/^hh:accept:/);
    expect(decline).toMatch(/^hh:decline:/);
    const ledger = await h.ledger(DANA);
    expect(ledger).toMatchObject([{ kind: "household", status: "sent", via: "template" }]);
    // Nothing is shared before she answers.
    expect(await say(h, YOSSI, "my household")).toEqual([
      expect.stringContaining("Invited, not answered yet: Dana"),
    ]);
    expect(await say(h, YOSSI, "create a shopping list for the household")).toEqual([
      "Nobody has joined your household yet (Dana hasn't accepted). Once someone does, you can share lists and remind each other.",
    ]);

    const answer = await tapTemplateButton(h, DANA, accept!, "Accept");
    // A first message: the welcome, then the answer to her tap.
    expect(answer.at(-1)).toContain("You've joined");
    expect(h.sentTo(YOSSI).at(-1)).toBe("🏠 Dana accepted: you now share a household.");
    expect(await say(h, YOSSI, "Who is in my household?")).toEqual(["🏠 Your household: you, Dana."]);

    // Tapping Accept again changes nothing.
    expect(await tapTemplateButton(h, DANA, accept!, "Accept")).toEqual([
      "That invitation is no longer open.",
    ]);
    expect(await say(h, YOSSI, "invite Dana 0501234567 to my household")).toEqual([
      "Dana is already in your household.",
    ]);

    expect(await say(h, DANA, "leave the household")).toEqual([
      "You've left the household. Your lists, tasks and notes stay yours.",
    ]);
    // He is the one left: the household ends (docs/HOUSEHOLD.md), and he is told so.
    expect(h.sentTo(YOSSI).at(-1)).toBe(
      "🏠 Dana left the household.\nWith only you left, the household has ended.",
    );
    expect(await say(h, YOSSI, "my household")).toEqual([
      expect.stringContaining("You're not in a household"),
    ]);
  });

  it("in Hebrew, to someone who never wrote: the template's אישור answers in Hebrew", async () => {
    const h = await harness();
    await h.user(YOSSI, { language: "he" });
    await say(h, YOSSI, "תוסיף את דנה 0501234567 למשק הבית");
    const [accept] = templateButtons(lastTo(h, DANA));
    // The tap carries the payload and the title she tapped; she is a new user, answered in her words' language.
    const answer = await tapTemplateButton(h, DANA, accept!, "אישור");
    expect(answer.at(-1)).toContain("הצטרפת למשק הבית של");
    expect((await h.memo.users.get(DANA))?.language).toBe("he");
  });

  it("in Hebrew: invite, accept with a reply button inside the window, who is in it, remove", async () => {
    const h = await harness();
    await h.user(YOSSI, { language: "he" });
    await h.user(DANA, { language: "he" });
    expect(await say(h, YOSSI, "תוסיף את דנה 0501234567 למשק הבית")).toEqual([
      "📨 הזמנתי את דנה. שום דבר לא משותף עד שיאשרו, ואעדכן אותך כשזה יקרה.",
    ]);
    // Dana wrote lately: a free-form message with reply buttons, in her language.
    const invitation = lastTo(h, DANA);
    expect(invitation.body).toMatchObject({ type: "interactive" });
    expect(h.sentTo(DANA).at(-1)).toContain("מזמין/ה אותך למשק בית משותף");
    const accept = (invitation.body as { interactive: { action: { buttons: { reply: { id: string } }[] } } })
      .interactive.action.buttons[0]!.reply.id;
    expect(await tapButton(h, DANA, accept, "אישור")).toEqual([
      expect.stringContaining("הצטרפת למשק הבית של"),
    ]);
    expect(h.sentTo(YOSSI).at(-1)).toBe("🏠 דנה אישר/ה: יש לכם עכשיו משק בית משותף.");
    expect(await say(h, DANA, "מי במשק הבית?")).toEqual([expect.stringMatching(/^🏠 משק הבית שלך: .*את\/ה/)]);

    expect(await say(h, YOSSI, "תוציא את דנה ממשק הבית")).toEqual([
      "דנה כבר לא במשק הבית שלך.\nנשארת לבד, אז משק הבית הסתיים.",
    ]);
    expect(h.sentTo(DANA).at(-1)).toContain("הוציא/ה אותך ממשק הבית");
    expect(await say(h, DANA, "משק הבית שלי")).toEqual([expect.stringContaining("את/ה לא במשק בית")]);
  });

  it("Decline and “stop” refuse, and later invitations from that person are not sent; the inviter cannot tell", async () => {
    const h = await harness();
    await h.user(YOSSI);
    await h.user(RINA);
    const first = await say(h, YOSSI, "add Rina +972 54-111-2223 to my household");
    const decline = (
      lastTo(h, RINA).body as { interactive: { action: { buttons: { reply: { id: string } }[] } } }
    ).interactive.action.buttons[1]!.reply.id;
    expect(await tapButton(h, RINA, decline, "Decline")).toEqual([
      "OK, declined. You won't get invitations from \u2066+972 52 111 0001\u2069 again.",
    ]);
    const sentToRina = h.sentTo(RINA).length;
    // Asked again: answered as for an invitation still waiting (a refusal looks like no answer
    // until the invitation expires), and he still sees her as invited; nothing reaches her.
    expect(await say(h, YOSSI, "add Rina +972 54-111-2223 to my household")).toEqual([
      "You've already invited Rina; I'm waiting for their answer.",
    ]);
    expect(await say(h, YOSSI, "my household")).toEqual(["Invited, not answered yet: Rina."]);
    // Once it expired, a new invitation is answered exactly as the first, and is not sent either.
    h.clock.advance(7 * 24 * 60 * 60 * 1000 + 1000);
    await h.user(YOSSI);
    expect(await say(h, YOSSI, "my household")).toEqual([
      expect.stringContaining("You're not in a household"),
    ]);
    expect(await say(h, YOSSI, "add Rina +972 54-111-2223 to my household")).toEqual(first);
    expect(h.sentTo(RINA)).toHaveLength(sentToRina);

    // "stop" while an invitation is open declines it; with none open it is not a household command.
    await h.user(DANA);
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    expect(await say(h, DANA, "stop")).toEqual([
      "OK, declined. You won't get invitations from \u2066+972 52 111 0001\u2069 again.",
    ]);
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    expect(h.sentTo(DANA).filter((t) => t.includes("invites you"))).toHaveLength(1);
  });

  it("a typed “accept” answers the open invitation; with none open it is not a household command", async () => {
    const h = await harness();
    await h.user(YOSSI);
    await h.user(DANA);
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    expect(await say(h, DANA, "accept")).toEqual([expect.stringContaining("You've joined")]);
    expect(h.sentTo(YOSSI).at(-1)).toBe("🏠 Dana accepted: you now share a household.");
    // Without a model, the rest of Memo lists what it understands.
    expect(await say(h, DANA, "accept")).toEqual([t("en", "noLLM")]);
  });

  it("answers a number Memo knows and one it does not in the same words", async () => {
    const h = await harness();
    await h.user(YOSSI);
    await h.user(RINA);
    const known = await say(h, YOSSI, "add Pat +972 54-111-2223 to my household");
    // (Another name: two people of one household never share one.)
    const unknown = await say(h, YOSSI, "add Sam +972 54-999-8887 to my household");
    expect(unknown).toEqual(known.map((reply) => reply.replace("Pat", "Sam")));
  });

  it("refuses a number it cannot read, the user's own number, and a seventh invitation in a day", async () => {
    const h = await harness();
    await h.user(YOSSI);
    expect(await say(h, YOSSI, "add Dana 123-45 to my household")).toEqual([
      "I couldn't read “123-45” as a phone number. Try for example: “add Dana 050-1234567 to my household”.",
    ]);
    expect(await say(h, YOSSI, "add me 052-111-0001 to my household")).toEqual([
      "That's your own number 🙂 Who would you like to invite?",
    ]);
    for (let i = 0; i < 5; i++)
      expect(await say(h, YOSSI, `add Guest${i} 050-700-000${i} to my household`)).toEqual([
        expect.stringContaining(`I've invited Guest${i}`),
      ]);
    expect(await say(h, YOSSI, "add Guest5 050-700-0005 to my household")).toEqual([
      "You've sent 5 invitations today, the most for one day. You can invite again tomorrow.",
    ]);
    h.clock.advance(24 * 60 * 60 * 1000 + 1000);
    await h.user(YOSSI);
    expect(await say(h, YOSSI, "add Guest5 050-700-0005 to my household")).toEqual([
      expect.stringContaining("I've invited Guest5"),
    ]);
  });

  it("a bare “remove X” that names no member is left to the rest of Memo", async () => {
    const h = await harness();
    await h.user(YOSSI);
    const reply = await say(h, YOSSI, "remove milk");
    expect(reply).toEqual([t("en", "noLLM")]);
  });

  it("erasing a person takes them out of every household with their invitations; refusals stay under a keyed hash", async () => {
    const h = await harness();
    await h.user(YOSSI);
    await h.user(DANA);
    await h.user(RINA);
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    const accept = (
      lastTo(h, DANA).body as { interactive: { action: { buttons: { reply: { id: string } }[] } } }
    ).interactive.action.buttons[0]!.reply.id;
    await tapButton(h, DANA, accept, "Accept");
    await say(h, YOSSI, "add Rina +972 54-111-2223 to my household");
    await say(h, RINA, "stop");
    const erased = await eraseUserData(h.db.pool, YOSSI);
    expect(erased).toMatchObject({
      household_members: 1,
      household_invitations: 2,
      "household_blocks.blocked_phone (kept under a keyed hash)": 1,
      households: 1,
    });
    for (const [table, column] of [
      ["household_members", "phone"],
      ["household_invitations", "inviter_phone"],
      ["household_invitations", "invitee_phone"],
      ["household_blocks", "phone"],
      ["household_blocks", "blocked_phone"],
    ] as const) {
      const { rows } = await h.db.pool.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [YOSSI]);
      expect(rows, `${table}.${column}`).toEqual([]);
    }
    // Dana's household had only Yossi besides her: it ended.
    expect(await say(h, DANA, "my household")).toEqual([
      expect.stringContaining("You're not in a household"),
    ]);
  });
});
