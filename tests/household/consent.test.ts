// Households keep consent under attack (issue 31): an answer, typed, tapped or quoted, applies only
// to an invitation delivered to that person, still open, from someone they have not refused; a
// typed "accept" with several open asks which, through the question plane; the limits count
// people and numbers whatever happens to a household; invitations expire; names are unique and
// checked; the tasks one member gives another are capped; only a change is journaled for undo.
// Through the webhook, with two to four phones, in English and Hebrew.
import { describe, expect, it } from "vitest";
import { t } from "../../src/messages/index.js";
import type { SentMessage } from "../support/fakeGraphApi.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage } from "../support/whatsappHarness.js";
import { eraseUserData } from "../../src/db/repositories/userDataRepository.js";
import { DANA, RINA, received, say, tap, YOSSI } from "./talk.js";

const MOTI = "972527770001";
const VERED = "972537770002";
const EVE = "972547770003";
const DAY = 24 * 60 * 60 * 1000;
/** Invitations to people who never wrote go as the household template. */
const TEMPLATES = { WHATSAPP_HOUSEHOLD_TEMPLATE: "memo_household", WHATSAPP_TEMPLATE_LANGUAGE_EN: "en_US" };

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** A harness whose users are `phones`, each with a WhatsApp name, inside the 24-hour window. */
async function harness(
  people: Record<string, { name: string; language?: "he" | "en" }>,
  env: Record<string, string> = {},
): Promise<SchedulerHarness> {
  h = await createSchedulerHarness({ db: shared.db, env: { ...TEMPLATES, ...env } });
  for (const [phone, { name, language }] of Object.entries(people)) {
    await h.user(phone, { language: language ?? "en" });
    await h.memo.users.update(phone, { displayName: name });
  }
  return h;
}

/** The last message sent to `phone`. */
function lastTo(h: SchedulerHarness, phone: string): SentMessage {
  const last = h.graphApi.sent.filter((m) => m.to.replace(/\D/g, "") === phone).at(-1);
  if (!last) throw new Error(`nothing was sent to ${phone}`);
  return last;
}

type Interactive = {
  interactive?: {
    action: {
      buttons?: { reply: { id: string; title: string } }[];
      sections?: { rows: { id: string; title: string; description?: string }[] }[];
    };
  };
};

/** The option labels of the last interactive message to `phone` (a list row's title and description). */
function labelsOfLast(h: SchedulerHarness, phone: string): string[] {
  const { interactive } = lastTo(h, phone).body as Interactive;
  const action = interactive?.action;
  return (
    action?.buttons?.map((b) => b.reply.title) ??
    action?.sections?.flatMap((s) => s.rows.map((r) => `${r.title}${r.description ?? ""}`)) ??
    []
  );
}

/** The option ids of the last interactive message to `phone`: its reply buttons, or its list's rows. */
function optionsOfLast(h: SchedulerHarness, phone: string): string[] {
  const { interactive } = lastTo(h, phone).body as Interactive;
  const action = interactive?.action;
  return (
    action?.buttons?.map((b) => b.reply.id) ?? action?.sections?.flatMap((s) => s.rows.map((r) => r.id)) ?? []
  );
}

/** The invitations that reached `phone`: their texts. */
const invitationsTo = (h: SchedulerHarness, phone: string) =>
  h.sentTo(phone).filter((text) => text.includes("invites you") || text.includes("מזמין/ה אותך"));

/** The WhatsApp id of the invitation message from `inviter`'s invitation that reached `phone` last. */
async function invitationMessageId(h: SchedulerHarness, phone: string, inviterName: string): Promise<string> {
  const rows = (await h.ledger(phone)).filter(
    (d) =>
      d.content.kind === "household" &&
      d.content.notice === "invitation" &&
      d.content.who.includes(inviterName),
  );
  const id = rows.at(-1)?.waMessageId;
  if (!id) throw new Error(`no invitation from ${inviterName} reached ${phone}`);
  return id;
}

/** `phone` writes `text` quoting the message `quoted`. */
const quoting = (h: SchedulerHarness, phone: string, text: string, quoted: string) =>
  received(h, phone, () => h.deliver(textMessage(phone, text, h.clock.now(), { replyTo: quoted })));

/** The accept / decline payloads of the last invitation that reached `phone` (reply buttons). */
function invitationButtons(h: SchedulerHarness, phone: string): { accept: string; decline: string } {
  const [accept, decline] = optionsOfLast(h, phone);
  if (!accept?.startsWith("hh:accept:") || !decline?.startsWith("hh:decline:"))
    throw new Error(`the last message to ${phone} is no invitation`);
  return { accept, decline };
}

/** Who `phone`'s household has, as "my household" says it. */
const household = async (h: SchedulerHarness, phone: string) =>
  (await say(h, phone, "my household")).join("\n");

describe("an answer applies only to an invitation delivered, open and not refused", () => {
  it("an invitation that could not be sent (outside the 24-hour window, no template) is answered by nothing", async () => {
    h = await createSchedulerHarness({ db: shared.db });
    await h.user(YOSSI);
    await h.memo.users.update(YOSSI, { displayName: "Yossi" });
    await say(h, YOSSI, "add Vered 053-7770002 to my household");
    expect(h.sentTo(VERED)).toEqual([]);
    await say(h, VERED, "accept");
    expect(await household(h, VERED)).toContain("You're not in a household");
    expect(await household(h, YOSSI)).toContain("Invited, not answered yet: Vered");
  });

  it("a typed “מאשרת” after refusing Moti joins Yossi's household, not Moti's hidden invitation", async () => {
    const h = await harness({
      [MOTI]: { name: "Moti", language: "he" },
      [YOSSI]: { name: "Yossi", language: "he" },
      [VERED]: { name: "Vered", language: "he" },
    });
    await say(h, MOTI, "תוסיף את ורד 053-7770002 למשק הבית");
    const { decline } = invitationButtons(h, VERED);
    expect((await tap(h, VERED, decline, "לא תודה"))[0]).toContain("לא יגיעו אליך עוד הזמנות");
    await say(h, YOSSI, "תוסיף את ורד 053-7770002 למשק הבית");
    // Moti again: recorded, answered as any invitation, not sent.
    await say(h, MOTI, "תוסיף את ורד 053-7770002 למשק הבית");
    expect(invitationsTo(h, VERED)).toHaveLength(2);

    const toMoti = await received(h, MOTI, async () => {
      expect(await say(h, VERED, "מאשרת")).toEqual([expect.stringContaining("הצטרפת למשק הבית של Yossi")]);
    });
    // Moti learns nothing; Yossi is told she accepted.
    expect(toMoti).toEqual([]);
    expect(h.sentTo(YOSSI).at(-1)).toBe("🏠 ורד אישר/ה: יש לכם עכשיו משק בית משותף.");
    expect(await say(h, VERED, "משק הבית שלי")).toEqual(["🏠 משק הבית שלך: את/ה, Yossi."]);
    // Moti still sees her as invited, not answered: her refusal stays hers.
    expect(await say(h, MOTI, "משק הבית שלי")).toEqual(["הוזמנו וטרם ענו: ורד."]);
  });

  it("quoting an invitation answers exactly that one; quoting a refused one says it is no longer open", async () => {
    const h = await harness({
      [EVE]: { name: "Eve" },
      [YOSSI]: { name: "Yossi" },
      [VERED]: { name: "Vered" },
    });
    await say(h, EVE, "add Vered 053-7770002 to my household");
    const eves = await invitationMessageId(h, VERED, "Eve");
    await tap(h, VERED, invitationButtons(h, VERED).decline, "Decline");
    await say(h, YOSSI, "add Vered 053-7770002 to my household");
    const yossis = await invitationMessageId(h, VERED, "Yossi");
    await say(h, EVE, "add Vered 053-7770002 to my household");

    expect(await quoting(h, VERED, "accept", eves)).toEqual(["That invitation is no longer open."]);
    expect(await household(h, VERED)).toContain("You're not in a household");
    expect(await quoting(h, VERED, "accept", yossis)).toEqual([
      expect.stringContaining("You've joined Yossi's household"),
    ]);
    // Eve's list and tasks stay hers: Vered is in Yossi's household only.
    expect(await household(h, VERED)).toBe("🏠 Your household: you, Yossi.");
    expect(await household(h, EVE)).toBe("Invited, not answered yet: Vered.");
  });

  it("several open: a typed “accept” asks which, naming the inviters; “בטל” drops the question and its buttons", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi" },
      [EVE]: { name: "Eve" },
      [VERED]: { name: "Vered" },
    });
    await say(h, YOSSI, "add Vered 053-7770002 to my household");
    h.clock.advance(60_000);
    await say(h, EVE, "add Vered 053-7770002 to my household");

    const asked = await say(h, VERED, "accept");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Which one did you mean?");
    // Newest first, each named with their number, as the invitation named them.
    const labels = labelsOfLast(h, VERED);
    expect(labels).toHaveLength(2);
    // The number first (a row's title is cut short, and a name could pose as a number), then the name.
    expect(labels[0]).toMatch(/^\u2066\+972 54 777 0003\u2069 ?Eve/u);
    expect(labels[1]).toMatch(/^\u2066\+972 52 111 0001\u2069 ?Yossi/u);
    const [eve, yossi] = optionsOfLast(h, VERED);
    expect([eve, yossi].every((id) => id && !id.startsWith("hh:"))).toBe(true);

    // "בטל" cancels the question, like every question of Memo's; its buttons then answer nothing.
    expect(await say(h, VERED, "בטל")).toEqual([t("en", "cancelled")]);
    expect(await tap(h, VERED, eve!, "Eve")).toEqual([t("en", "staleReply")]);
    expect(await household(h, VERED)).toContain("You're not in a household");

    // Asked again, a tap on one joins that household only.
    await say(h, VERED, "join");
    const told = await received(h, EVE, () => tap(h, VERED, optionsOfLast(h, VERED)[0]!, "Eve"));
    expect(h.sentTo(VERED).at(-1)).toContain("You've joined Eve's household");
    expect(told).toEqual(["🏠 Vered accepted: you now share a household."]);
    expect(await household(h, YOSSI)).toBe("Invited, not answered yet: Vered.");
  });

  it("several open, in Hebrew: “מאשרת” asks which, and the number of an option answers", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi", language: "he" },
      [EVE]: { name: "Eve", language: "he" },
      [VERED]: { name: "Vered", language: "he" },
    });
    await say(h, YOSSI, "תוסיף את ורד 053-7770002 למשק הבית");
    h.clock.advance(60_000);
    await say(h, EVE, "תוסיף את ורד 053-7770002 למשק הבית");
    const asked = await say(h, VERED, "מאשרת");
    expect(asked[0]).toContain("למה התכוונת?");
    expect(asked[0]).toContain("הזמנות פתוחות למשק בית");
    expect(await say(h, VERED, "2")).toEqual([expect.stringContaining("הצטרפת למשק הבית של Yossi")]);
  });

  it("the question “which invitation?” survives a restart, and its answer joins the one chosen", async () => {
    const before = await harness({
      [YOSSI]: { name: "Yossi" },
      [EVE]: { name: "Eve" },
      [VERED]: { name: "Vered" },
    });
    await say(before, YOSSI, "add Vered 053-7770002 to my household");
    before.clock.advance(60_000);
    await say(before, EVE, "add Vered 053-7770002 to my household");
    await say(before, VERED, "accept");
    const [, yossi] = optionsOfLast(before, VERED);
    // Another process on the same database, at the same time: the paused thread is on disk.
    await before.close(false);
    h = await createSchedulerHarness({ db: shared.db, clock: before.clock, env: TEMPLATES });
    const after = h;
    expect(await tap(after, VERED, yossi!, "Yossi")).toEqual([
      expect.stringContaining("You've joined Yossi's household"),
    ]);
    expect(await household(after, EVE)).toBe("Invited, not answered yet: Vered.");
  });

  it("a member taken out cannot rejoin by typing “accept” to an invitation that was never delivered", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    // Three invitations reach Dana today: each accepted, each time she is taken out.
    for (let i = 0; i < 3; i++) {
      await say(h, YOSSI, "add Dana 050-1234567 to my household");
      expect(await say(h, DANA, "accept")).toEqual([expect.stringContaining("You've joined")]);
      await say(h, YOSSI, "remove Dana from the household");
    }
    // A fourth is recorded, answered as any, and not delivered: her number had three today.
    expect(await say(h, YOSSI, "add Dana 050-1234567 to my household")).toEqual([
      expect.stringContaining("I've invited Dana"),
    ]);
    expect(invitationsTo(h, DANA)).toHaveLength(3);
    expect(await say(h, DANA, "accept")).toEqual([t("en", "noLLM")]);
    expect(await household(h, DANA)).toContain("You're not in a household");
  });
});

describe("an answer while another question is open", () => {
  it("“מאשרת” unquoted answers neither (the question stays, nothing deleted); quoting the invitation answers it", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi", language: "he" },
      [DANA]: { name: "Dana", language: "he" },
    });
    await say(h, DANA, "תוסיף חלב, ביצים לרשימת קניות");
    // A list with items is deleted only after a yes.
    expect((await say(h, DANA, "תמחק את רשימת קניות")).join("\n")).toContain("קניות");
    await say(h, YOSSI, "תוסיף את דנה 050-1234567 למשק הבית");
    const invitation = await invitationMessageId(h, DANA, "Yossi");

    const unclear = (await say(h, DANA, "מאשרת")).join("\n");
    expect(unclear).toContain(t("he", "hitlOrInvitation"));
    expect(await household(h, DANA)).toContain(t("en", "household.none"));
    expect((await say(h, DANA, "תראה לי את רשימת קניות")).join("\n")).toContain("חלב");

    await say(h, DANA, "תמחק את רשימת קניות");
    const joined = (await quoting(h, DANA, "מאשרת", invitation)).join("\n");
    expect(joined).toContain("הצטרפת למשק הבית של Yossi");
    expect(joined).toContain(t("he", "hitlLeft"));
    expect((await say(h, DANA, "תראה לי את רשימת קניות")).join("\n")).toContain("חלב");
  });

  it("“stop” quoting a reminder answers no invitation", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await say(h, DANA, "add task water the plants");
    const [listing] = await say(h, DANA, "my tasks");
    const listingId = h.graphApi.sent.filter((m) => m.to.replace(/\D/g, "") === DANA).at(-1)!.id;
    expect(listing).toContain("water the plants");
    const reply = (await quoting(h, DANA, "stop", listingId)).join("\n");
    expect(reply).not.toContain("won't get invitations");
    // The invitation is still open to her: a plain "accept" joins.
    expect((await say(h, DANA, "accept")).join("\n")).toContain("You've joined Yossi's household");
  });
});

describe("a refusal never shows", () => {
  it("the inviter leaving closes the invitations she sent, declined ones too: the others see neither", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi" },
      [DANA]: { name: "Dana" },
      [RINA]: { name: "Rina" },
      [VERED]: { name: "Vered" },
      [EVE]: { name: "Eve" },
    });
    for (const [phone, name, number] of [
      [DANA, "Dana", "050-1234567"],
      [RINA, "Rina", "054-1112223"],
    ] as const) {
      await say(h, YOSSI, `add ${name} ${number} to my household`);
      await say(h, phone, "accept");
    }
    await say(h, DANA, "add Vered 053-7770002 to my household");
    await say(h, DANA, "add Eve 054-7770003 to my household");
    await tap(h, VERED, invitationButtons(h, VERED).decline, "Decline");
    expect(await household(h, YOSSI)).toContain("Vered, Eve");
    await say(h, DANA, "leave the household");
    // Neither shows as invited, so nothing tells Vered's refusal apart from Eve's silence.
    expect(await household(h, YOSSI)).toBe("🏠 Your household: you, Rina.");
    expect(await say(h, YOSSI, "add Vered 053-7770002 to my household")).toEqual([
      expect.stringContaining("I've invited Vered"),
    ]);
    expect(await say(h, YOSSI, "add Eve 054-7770003 to my household")).toEqual([
      expect.stringContaining("I've invited Eve"),
    ]);
  });
});

describe("limits count people and numbers, whatever happens to a household", () => {
  it("invite and leave, again and again: three invitations reach one number a day, and the sixth is refused", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [RINA]: { name: "Rina" } });
    for (let i = 0; i < 5; i++) {
      expect(await say(h, YOSSI, "add Dana 050-1234567 to my household")).toEqual([
        expect.stringContaining("I've invited Dana"),
      ]);
      expect((await say(h, YOSSI, "leave the household"))[0]).toContain("You've left the household");
    }
    expect(invitationsTo(h, DANA)).toHaveLength(3);
    // Past five today: leaving reset nothing.
    expect(await say(h, YOSSI, "add Dana 050-1234567 to my household")).toEqual([
      "You've sent 5 invitations today, the most for one day. You can invite again tomorrow.",
    ]);
    // Someone else's invitation to her today is answered the same and not sent either.
    expect(await say(h, RINA, "add Dana 050-1234567 to my household")).toEqual([
      expect.stringContaining("I've invited Dana"),
    ]);
    expect(invitationsTo(h, DANA)).toHaveLength(3);

    // A day later both limits start again.
    h.clock.advance(DAY + 1000);
    await h.user(YOSSI);
    expect(await say(h, YOSSI, "add Dana 050-1234567 to my household")).toEqual([
      expect.stringContaining("I've invited Dana"),
    ]);
    expect(invitationsTo(h, DANA)).toHaveLength(4);
  });
});

describe("what protects a person outlives their erasure", () => {
  /** `npm run delete-user`: their refusals and the limits' log stay under the keyed hash of their number. */
  const erase = (h: SchedulerHarness, phone: string) => eraseUserData(h.db.pool, phone);

  it("a refusal still holds, and the invitations a number had today still count", async () => {
    const h = await harness({
      [MOTI]: { name: "Moti" },
      [YOSSI]: { name: "Yossi" },
      [RINA]: { name: "Rina" },
      [VERED]: { name: "Vered" },
    });
    // Vered refuses Moti, then is erased; Moti invites her again from a new household.
    await say(h, MOTI, "add Vered 053-7770002 to my household");
    await tap(h, VERED, invitationButtons(h, VERED).decline, "Decline");
    await erase(h, VERED);
    await say(h, MOTI, "leave the household");
    expect(await say(h, MOTI, "add Vered 053-7770002 to my household")).toEqual([
      expect.stringContaining("I've invited Vered"),
    ]);
    expect(invitationsTo(h, VERED)).toHaveLength(1);

    // Dana had three today; erased, a fourth is still not sent, and Yossi's count stands too.
    for (const inviter of [YOSSI, RINA, YOSSI]) {
      await say(h, inviter, "add Dana 050-1234567 to my household");
      await say(h, inviter, "leave the household");
    }
    expect(invitationsTo(h, DANA)).toHaveLength(3);
    await erase(h, DANA);
    await erase(h, YOSSI);
    await h.user(YOSSI);
    await say(h, RINA, "add Dana 050-1234567 to my household");
    expect(invitationsTo(h, DANA)).toHaveLength(3);
    for (let i = 0; i < 3; i++) await say(h, YOSSI, `add Guest${"abc"[i]} 050-700-000${i} to my household`);
    expect(await say(h, YOSSI, "add Guestd 050-700-0009 to my household")).toEqual([
      "You've sent 5 invitations today, the most for one day. You can invite again tomorrow.",
    ]);
  });
});

describe("an invitation expires", () => {
  it("declined or not, it is listed to the inviter as invited until it expires, then no answer reaches it", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi" },
      [DANA]: { name: "Dana" },
      [RINA]: { name: "Rina", language: "he" },
    });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await tap(h, DANA, invitationButtons(h, DANA).decline, "Decline");
    await say(h, YOSSI, "add Rina 054-1112223 to my household");
    const { accept } = invitationButtons(h, RINA);
    // The refusal is not revealed: Dana is listed like Rina, who has not answered.
    expect(await say(h, YOSSI, "my household")).toEqual(["Invited, not answered yet: Dana, Rina."]);

    h.clock.advance(7 * DAY + 1000);
    await h.user(YOSSI);
    await h.user(RINA, { language: "he" });
    expect(await say(h, YOSSI, "my household")).toEqual([
      expect.stringContaining("You're not in a household"),
    ]);
    expect(await tap(h, RINA, accept, "אישור")).toEqual(["ההזמנה הזאת כבר לא פתוחה."]);
    expect(await say(h, RINA, "מאשרת")).toEqual(["ההזמנה הזאת כבר לא פתוחה."]);
    expect(await household(h, RINA)).not.toContain("Yossi");
  });

  it("HOUSEHOLD_INVITATION_DAYS sets how long: after one day a typed “accept” says it is no longer open", async () => {
    const h = await harness(
      { [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } },
      { HOUSEHOLD_INVITATION_DAYS: "1" },
    );
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    h.clock.advance(DAY + 1000);
    await h.user(DANA);
    expect(await say(h, DANA, "accept")).toEqual(["That invitation is no longer open."]);
    // "stop" after it expired is not about it: the rest of Memo reads it.
    expect(await say(h, DANA, "stop")).not.toEqual(["That invitation is no longer open."]);
  });

  it("a household of one that ends takes its open invitations with it, and says so", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    const { accept } = invitationButtons(h, DANA);
    expect(await say(h, YOSSI, "leave the household")).toEqual([
      "You've left the household. Your lists, tasks and notes stay yours.\nYour open invitations (Dana) were withdrawn.",
    ]);
    expect(await tap(h, DANA, accept, "Accept")).toEqual(["That invitation is no longer open."]);
  });
});

describe("names within a household", () => {
  it("a name a member or someone invited already has is refused, asking for another", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await say(h, DANA, "accept");
    const taken = (name: string) =>
      `Someone in your household (or invited to it) is already called “${name}”. Invite them by another name, for example with their last name or an initial.`;
    // Carl as "Yossi" (a member), as "dana" (a member, any case), as "RINA" (invited, not answered).
    expect(await say(h, YOSSI, "add Yossi 054-9998887 to my household")).toEqual([taken("Yossi")]);
    expect(await say(h, DANA, "add dana 054-9998887 to my household")).toEqual([taken("dana")]);
    await say(h, YOSSI, "add Rina 054-1112223 to my household");
    expect(await say(h, DANA, "add RINA 054-9998887 to my household")).toEqual([taken("RINA")]);
    // Nothing was sent to Carl; "remove Dana" still means the one Dana.
    expect(invitationsTo(h, "972549998887")).toEqual([]);
    expect(await say(h, YOSSI, "remove Dana from the household")).toEqual([
      "Dana is no longer in your household.\nWith only you left, the household has ended, and its open invitations (Rina) with it.",
    ]);
  });

  it("in Hebrew: the first to join keeps a name; an invitation under it is refused", async () => {
    const h = await harness({
      [YOSSI]: { name: "יוסי", language: "he" },
      [DANA]: { name: "דנה", language: "he" },
    });
    await say(h, YOSSI, "תוסיף את דנה 050-1234567 למשק הבית");
    await say(h, DANA, "מאשרת");
    expect((await say(h, DANA, "תוסיף את יוסי 054-9998887 למשק הבית"))[0]).toContain(
      "כבר יש במשק הבית שלך (או בין המוזמנים) מישהו בשם “יוסי”",
    );
  });

  it("a name that shows nothing, is written with direction controls, or is 500 characters long is refused", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [RINA]: { name: "Rina", language: "he" } });
    expect((await say(h, YOSSI, "add \u200b\u200b 050-1234567 to my household"))[0]).toContain(
      "I can't see anything in that (a name)",
    );
    expect(await say(h, YOSSI, "add \u202eanaD 050-1234567 to my household")).toEqual([
      "That name has hidden direction characters that make it show differently from how it is written. Please type the name with plain letters.",
    ]);
    expect((await say(h, YOSSI, `add ${"D".repeat(500)} 050-1234567 to my household`))[0]).toContain(
      "a name: up to 40 characters",
    );
    expect((await say(h, RINA, "תוסיף את \u202eהנד 050-1234567 למשק הבית"))[0]).toContain(
      "תווי כיוון נסתרים",
    );
    expect(invitationsTo(h, DANA)).toEqual([]);
    expect(await say(h, YOSSI, "my household")).toEqual([
      expect.stringContaining("You're not in a household"),
    ]);
  });
});

describe("reminders and tasks from one member to another", () => {
  it("at most 10 a day, told when reached, and deleting them gives none back", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await say(h, DANA, "accept");
    const drinks = ["water", "tea", "juice", "milk", "soda", "coffee", "cocoa", "lemonade", "broth"];
    for (const drink of drinks)
      expect((await say(h, YOSSI, `remind Dana in 3 minutes to drink ${drink}`))[0]).toContain(
        "I'll remind Dana",
      );
    expect((await say(h, YOSSI, "task for Dana: call the plumber"))[0]).toContain("Gave Dana the task");
    const limit = [
      "You've given Dana 10 reminders and tasks today, the most for one day. You can give more tomorrow.",
    ];
    expect(await say(h, YOSSI, "remind Dana in 3 minutes to drink water")).toEqual(limit);
    expect(await say(h, YOSSI, "task for Dana: one more")).toEqual(limit);
    // She deletes them all: the count stands.
    await h.tasks.delete(
      DANA,
      (await h.tasks.list(DANA)).map((task) => task.id),
    );
    expect(await say(h, YOSSI, "task for Dana: one more")).toEqual(limit);
    expect(await h.tasks.list(DANA)).toEqual([]);
    // Her own limit to him is her own.
    expect((await say(h, DANA, "task for Yossi: fix the shelf"))[0]).toContain("Gave Yossi the task");
    h.clock.advance(DAY + 1000);
    await h.user(YOSSI);
    expect((await say(h, YOSSI, "task for Dana: one more"))[0]).toContain("Gave Dana the task");
  });

  it("in Hebrew, with HOUSEHOLD_TASKS_PER_DAY=2", async () => {
    const h = await harness(
      { [YOSSI]: { name: "יוסי", language: "he" }, [DANA]: { name: "דנה", language: "he" } },
      { HOUSEHOLD_TASKS_PER_DAY: "2" },
    );
    await say(h, YOSSI, "תוסיף את דנה 050-1234567 למשק הבית");
    await say(h, DANA, "מאשרת");
    await say(h, YOSSI, "משימה לדנה: לקנות חלב");
    await say(h, YOSSI, "תזכיר לדנה בעוד 3 דקות לשתות מים");
    expect(await say(h, YOSSI, "משימה לדנה: עוד אחת")).toEqual([
      "נתת היום לדנה 2 תזכורות ומשימות, המקסימום ליום. אפשר לתת עוד מחר.",
    ]);
  });

  it("“remind Dana …” while Dana has not accepted yet says so, in English and Hebrew", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [RINA]: { name: "Rina", language: "he" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    expect(await say(h, YOSSI, "remind Dana tomorrow at 17:00 to pick up the kids")).toEqual([
      "Dana hasn't accepted your invitation yet. Once they do, you can give them reminders and tasks.",
    ]);
    expect(await say(h, YOSSI, "task for Dana: call the plumber")).toEqual([
      "Dana hasn't accepted your invitation yet. Once they do, you can give them reminders and tasks.",
    ]);
    await say(h, RINA, "תוסיף את דנה 050-1234567 למשק הבית");
    expect(await say(h, RINA, "תזכיר לדנה מחר ב-17:00 לאסוף את הילדים")).toEqual([
      "דנה עוד לא אישר/ה את ההזמנה שלך. ברגע שיאשרו, אפשר יהיה לתת להם תזכורות ומשימות.",
    ]);
    expect(await h.tasks.list(DANA)).toEqual([]);
  });
});

describe("the give question and undo", () => {
  it("“בטל” while “Dana: …” is asked cancels it, and its Yes then gives nothing", async () => {
    const h = await harness({
      [YOSSI]: { name: "יוסי", language: "he" },
      [DANA]: { name: "דנה", language: "he" },
    });
    await say(h, YOSSI, "תוסיף את דנה 050-1234567 למשק הבית");
    await say(h, DANA, "מאשרת");
    expect(await say(h, YOSSI, "דנה: להתקשר לאינסטלטור")).toEqual([
      "לתת לדנה את המשימה “להתקשר לאינסטלטור”? אעדכן אותם, ואותך כשהיא תבוצע.",
    ]);
    const [yes] = optionsOfLast(h, YOSSI);
    expect(await say(h, YOSSI, "בטל")).toEqual([t("he", "cancelled")]);
    expect(await tap(h, YOSSI, yes!, "כן")).toEqual([t("he", "staleReply")]);
    expect(await h.tasks.list(DANA)).toEqual([]);
  });

  it("a forged give button, invisible or to someone not in the household, gives nothing", async () => {
    const h = await harness({
      [YOSSI]: { name: "Yossi" },
      [DANA]: { name: "Dana" },
      [RINA]: { name: "Rina" },
    });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await say(h, DANA, "accept");
    for (const payload of [
      `hh:give:${DANA}:\u200b\u200f`,
      `hh:give:${RINA}:pay me`,
      `hh:give:${DANA}:${"x".repeat(3000)}`,
    ])
      expect(await tap(h, YOSSI, payload, "Yes, give it")).toEqual([t("en", "staleReply")]);
    expect(await h.tasks.list(DANA)).toEqual([]);
    expect(await h.tasks.list(RINA)).toEqual([]);
  });

  it("a refused household command is not journaled: “undo” after it brings back the deleted task", async () => {
    const h = await harness({ [YOSSI]: { name: "Yossi" }, [DANA]: { name: "Dana" } });
    await say(h, YOSSI, "add Dana 050-1234567 to my household");
    await say(h, DANA, "accept");
    await say(h, YOSSI, "add task water the plants");
    expect((await say(h, YOSSI, "delete task water the plants"))[0]).toContain("water the plants");
    expect(await h.tasks.list(YOSSI)).toEqual([]);
    expect(await say(h, YOSSI, "remove Bob from the household")).toEqual([
      "There's no “Bob” in your household. It has: Dana.",
    ]);
    await say(h, YOSSI, "stop reminders from Bob");
    // Other messages came between: undo names the deletion (not a household change) and asks first.
    expect((await say(h, YOSSI, "undo")).join("\n")).toContain("water the plants");
    await say(h, YOSSI, "yes");
    expect((await h.tasks.list(YOSSI)).map((task) => task.text)).toEqual(["water the plants"]);
  });

  it("in Hebrew: a refused invitation is not journaled either", async () => {
    const h = await harness({ [YOSSI]: { name: "יוסי", language: "he" } });
    await say(h, YOSSI, "תוסיף משימה להשקות את העציצים");
    await say(h, YOSSI, "תמחק את המשימה להשקות את העציצים");
    expect(await h.tasks.list(YOSSI)).toEqual([]);
    await say(h, YOSSI, "תוסיף את יוסי 052-1110001 למשק הבית");
    expect((await say(h, YOSSI, "בטל")).join("\n")).toContain("להשקות את העציצים");
    await say(h, YOSSI, "כן");
    expect((await h.tasks.list(YOSSI)).map((task) => task.text)).toEqual(["להשקות את העציצים"]);
  });
});
