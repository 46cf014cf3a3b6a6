// Email through invokeMemoGraph: the real graph and storage, the real ChatOpenAI client against a
// scripted server (planner, then GmailResolver), and the Gmail v1 stand-in, asserting what Memo
// says and exactly what it sent. "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterEach, describe, expect, it } from "vitest";
import { crashOnce } from "../support/databaseScript.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { PHONE } from "../support/memoHarness.js";
import { gmailHarness, isGmailResolver, isReviser, isSummarizer, scriptGmailTurn } from "./support.js";

let g: Awaited<ReturnType<typeof gmailHarness>> | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

const DRAFT = {
  operation: "send" as const,
  to: ["dana@example.com"],
  subject: "Running late",
  body: "Hi Dana,\nI'll be 10 minutes late.\nSorry!",
};
const ASKED = [
  "📧 Send this email?",
  "To: dana@example.com",
  "Subject: Running late",
  "———",
  "Hi Dana,",
  "I'll be 10 minutes late.",
  "Sorry!",
].join("\n");
/** The planner thinks sending is risky and wants approval; Memo must still ask only once. */
const RISKY = { riskLevel: "high" as const, needsApproval: true, clarificationQuestion: "Send it?" };

describe("numbers after an email search", () => {
  it("'delete 2' after 'my tasks' then an email search is the email's (the planner's): the tasks stay", async () => {
    g = await gmailHarness({ env: { FAST_PATH: "on" } });
    const { h, gmail } = g;
    const tasks = new PgTaskRepository(h.db.pool);
    for (const text of ["renew passport", "call the plumber"])
      await tasks.create(PHONE, `seed:${text}`, { text, timeZone: "Asia/Jerusalem" });
    expect((await h.say("my tasks")).text).toContain("2. call the plumber");
    h.clock.advance(60_000);
    gmail.add({ from: "Bank <info@bank.example>", subject: "Statement March" });
    const statement = gmail.add({ from: "Bank <info@bank.example>", subject: "Card blocked" });
    scriptGmailTurn(h, "search_email", { operation: "search", query: "from:bank" });
    expect((await h.say("show my emails from the bank")).text).toContain("📬 2 emails:");
    // "delete 2" is the email's: the planner reads it, and deleting an email asks first.
    scriptGmailTurn(h, "delete_email", { operation: "delete", email: { handle: "#2" } });
    expect((await h.say("delete 2")).text).toContain("Move this email to the trash?");
    await h.say("cancel");
    h.clock.advance(60_000);
    const open = async () => (await tasks.list(PHONE)).map((t) => t.text);
    expect(await open()).toEqual(["renew passport", "call the plumber"]);
    expect(gmail.messages.get(statement.id)!.labelIds).not.toContain("TRASH");
    // "my tasks" again: the listing is newest, and "delete 2" is the task's, without a model.
    await h.say("my tasks");
    h.clock.advance(60_000);
    const calls = h.server!.requests.length;
    expect((await h.say("delete 2")).text).toContain("call the plumber");
    expect(h.server!.requests.length).toBe(calls);
    expect(await open()).toEqual(["renew passport"]);
  });
});

describe("searching and reading", () => {
  it("lists matches numbered with sender, subject and date, then reads #2 (English)", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({
      from: "Dana Levi <dana@example.com>",
      subject: "Invoice March",
      text: "Please pay 100 by Sunday.",
      date: Date.parse("2026-03-04T09:00:00Z"),
    });
    const older = gmail.add({
      from: "Dana Levi <dana@example.com>",
      subject: "Invoice February",
      text: "Paid, thanks!\nDana",
      date: Date.parse("2026-02-20T09:00:00Z"),
      labelIds: ["INBOX"],
    });
    scriptGmailTurn(h, "search_email", { operation: "search", query: "from:dana invoice" });
    const listed = await h.say("find the invoice emails from Dana");
    expect(listed).toMatchObject({
      status: "completed",
      text: [
        "📬 2 emails:",
        "1. *Dana Levi* — Invoice March (yesterday at 11:00) (unread)",
        "2. *Dana Levi* — Invoice February (Fri 20/02 at 11:00)",
        "",
        'Say "read 2" to open one.',
      ].join("\n"),
    });
    expect(gmail.requests.find((r) => r.path.endsWith("/messages"))!.query.get("q")).toBe(
      "from:dana invoice",
    );

    scriptGmailTurn(h, "read_email", { operation: "read", email: { handle: "#2" } });
    const read = await h.say("read 2");
    expect(read.text).toBe(
      [
        "📧 *Invoice February*",
        "From: Dana Levi <dana@example.com>",
        "To: me@example.com",
        "🕒 Fri 20/02 at 11:00",
        "",
        "Paid, thanks!\nDana",
      ].join("\n"),
    );
    expect(gmail.requests.some((r) => r.path.endsWith(`/messages/${older.id}`))).toBe(true);
    // No id ever came from the model: the resolver prompt had the search as "@1".
    expect(lastUserMessageOf(h.server!.requests.filter(isGmailResolver)[1]!)).toContain("@1 gmail.search");
  });

  it("reads 'the email from Dana' in Hebrew, the HTML body as text, shortened for WhatsApp", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const long = `<p>שלום,</p><p>${"מילים רבות ".repeat(300)}</p>`;
    gmail.add({ from: "דנה <dana@example.com>", subject: "סיכום פגישה", html: long });
    scriptGmailTurn(h, "read_email", { operation: "read", email: { from: "דנה" } });
    const read = await h.say("תקרא לי את המייל מדנה");
    expect(read.text).toMatch(
      /^📧 \*סיכום פגישה\*\nמאת: דנה <dana@example.com>\nאל: me@example.com\n🕒 אתמול ב-11:00\n\nשלום,\n\nמילים רבות/,
    );
    expect(read.text).toMatch(/… \(מקוצר\)$/);
    expect(read.text.length).toBeLessThan(1700);
    expect(gmail.requests.find((r) => r.path.endsWith("/messages"))!.query.get("q")).toBe("from:דנה");
  });

  it("lists and opens emails in Hebrew", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({ from: "דנה כהן <dana@example.com>", subject: "חשבונית מרץ", text: "נא לשלם עד יום ראשון." });
    scriptGmailTurn(h, "search_email", { operation: "search", query: "is:unread" });
    expect((await h.say("יש לי מיילים שלא קראתי?")).text).toBe(
      [
        "📬 מייל אחד:",
        "1. *דנה כהן* — חשבונית מרץ (אתמול ב-11:00) (לא נקרא)",
        "",
        'כתבו "תקרא את 1" כדי לפתוח אחד.',
      ].join("\n"),
    );
    scriptGmailTurn(h, "read_email", { operation: "read", email: { handle: "#1" } });
    expect((await h.say("תקרא את 1")).text).toBe(
      [
        "📧 *חשבונית מרץ*",
        "מאת: דנה כהן <dana@example.com>",
        "אל: me@example.com",
        "🕒 אתמול ב-11:00",
        "",
        "נא לשלם עד יום ראשון.",
      ].join("\n"),
    );
  });

  it("summarizes a long thread for WhatsApp with the model", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    for (const [i, who] of [
      "Dana <dana@example.com>",
      "me@example.com",
      "Dana <dana@example.com>",
    ].entries()) {
      gmail.add({
        from: who,
        subject: "Trip",
        threadId: "t-trip",
        text: `message ${i}`,
        date: Date.parse("2026-03-01T09:00:00Z") + i * 3_600_000,
      });
    }
    scriptGmailTurn(h, "read_email", { operation: "read", email: { words: "message 2" }, thread: true });
    h.server!.on(isSummarizer, { text: "Dana and you planned the trip; she is waiting for dates." });
    const read = await h.say("summarize the trip thread");
    expect(read.text).toBe(
      "🧵 *Trip*: 3 messages\n\nDana and you planned the trip; she is waiting for dates.",
    );
    const asked = lastUserMessageOf(h.server!.requests.find(isSummarizer)!)!;
    expect(asked).toContain("message 0");
    expect(asked).toContain("message 2");
  });

  it("says when nothing matches", async () => {
    g = await gmailHarness();
    scriptGmailTurn(g.h, "read_email", { operation: "read", email: { from: "Zed" } });
    expect((await g.h.say("read the email from Zed")).text).toBe('I couldn\'t find an email matching "Zed".');
  });
});

describe("sending with approval", () => {
  it("asks once with approve / edit / cancel, showing recipients, subject and first lines; approve sends exactly once", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", DRAFT, RISKY);
    const asked = await h.say("email dana@example.com that I'll be 10 minutes late");
    expect(asked).toMatchObject({ status: "waiting", expectedInput: "single_choice" });
    expect(asked.text).toBe(`${ASKED}\n1. Approve\n2. Edit\n3. Cancel`);
    expect(asked.options.map((o) => o.id)).toEqual(["approve", "edit", "cancel"]);
    expect(gmail.sent).toHaveLength(0);

    const done = await h.say("Approve", { optionId: "approve" });
    expect(done).toMatchObject({ status: "completed", text: "✅ Sent to dana@example.com: *Running late*" });
    expect(gmail.sent).toHaveLength(1);
    expect(gmail.sent[0]).toMatchObject({
      to: "dana@example.com",
      subject: "Running late",
      body: DRAFT.body,
    });
    expect(gmail.changes()).toEqual(["POST /gmail/v1/users/me/messages/send"]);
  });

  it("cancel sends nothing", async () => {
    g = await gmailHarness();
    scriptGmailTurn(g.h, "send_email", DRAFT, RISKY);
    await g.h.say("email dana@example.com that I'll be late");
    expect(await g.h.say("cancel")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(g.gmail.sent).toHaveLength(0);
    expect(g.gmail.changes()).toEqual([]);
  });

  it("edit → 'What should I change?' → the revised draft is shown → approve sends the revised text", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", DRAFT);
    await h.say("email dana@example.com that I'll be late");
    expect(await h.say("edit")).toMatchObject({
      status: "waiting",
      text: "What should I change?",
      expectedInput: "free_text",
    });
    h.server!.enqueue({
      json: {
        to: ["dana@example.com"],
        cc: ["bob@example.com"],
        subject: "Running late",
        body: "Hi Dana,\nI'll be 20 minutes late.\nSorry!",
      },
    });
    const again = await h.say("make it 20 minutes and cc bob@example.com");
    expect(again.status).toBe("waiting");
    expect(again.text).toBe(
      [
        "📧 Send this email?",
        "To: dana@example.com",
        "Cc: bob@example.com",
        "Subject: Running late",
        "———",
        "Hi Dana,",
        "I'll be 20 minutes late.",
        "Sorry!",
        "1. Approve",
        "2. Edit",
        "3. Cancel",
      ].join("\n"),
    );
    const reviser = lastUserMessageOf(h.server!.requests.find(isReviser)!)!;
    expect(reviser).toContain("make it 20 minutes and cc bob@example.com");
    expect(reviser).toContain("I'll be 10 minutes late.");
    expect(gmail.sent).toHaveLength(0);
    await h.say("send");
    expect(gmail.sent).toHaveLength(1);
    expect(gmail.sent[0]).toMatchObject({
      cc: "bob@example.com",
      body: "Hi Dana,\nI'll be 20 minutes late.\nSorry!",
    });
  });

  it("an edit that names someone with no address keeps the recipients and says so", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", DRAFT);
    await h.say("email dana@example.com that I'll be late");
    await h.say("edit");
    h.server!.enqueue({ json: { to: ["Nobody"], subject: "Running late", body: DRAFT.body } });
    const again = await h.say("send it to Nobody instead");
    expect(again.text).toMatch(
      /^\(I couldn't find an address for Nobody, so I kept the recipients as they were\.\)\n📧 Send this email\?\nTo: dana@example.com\n/,
    );
    await h.say("approve");
    expect(gmail.sent[0]!.to).toBe("dana@example.com");
  });

  it("in Hebrew: the question is in Hebrew, the Hebrew subject and body arrive intact, שלח sends", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(
      h,
      "send_email",
      {
        operation: "send",
        to: ["dana@example.com"],
        subject: "מאחר לפגישה",
        body: "היי דנה,\nאני מאחר ברבע שעה.\nסליחה!",
      },
      RISKY,
    );
    const asked = await h.say("שלח מייל לdana@example.com שאני מאחר ברבע שעה");
    expect(asked.text).toBe(
      [
        "📧 לשלוח את המייל הזה?",
        "אל: dana@example.com",
        "נושא: מאחר לפגישה",
        "———",
        "היי דנה,",
        "אני מאחר ברבע שעה.",
        "סליחה!",
        "1. אישור",
        "2. עריכה",
        "3. ביטול",
      ].join("\n"),
    );
    expect(await h.say("שלח")).toMatchObject({
      status: "completed",
      text: "✅ נשלח אל dana@example.com: *מאחר לפגישה*",
    });
    expect(gmail.sent).toHaveLength(1);
    expect(gmail.sent[0]).toMatchObject({
      subject: "מאחר לפגישה",
      body: "היי דנה,\nאני מאחר ברבע שעה.\nסליחה!",
    });
    expect(gmail.sent[0]!.mime).toMatch(/^Subject: =\?UTF-8\?B\?/m);
  });

  it("in Hebrew: edit then send (without a model reply for the edit, the rule edit takes the new text)", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", {
      operation: "send",
      to: ["dana@example.com"],
      subject: "פגישה",
      body: "נתראה ב-10",
    });
    await h.say("שלח לדנה dana@example.com מייל שנתראה ב-10");
    expect((await h.say("עריכה")).text).toBe("מה לשנות?");
    // The model fails on the revision: the user's words become the new text (rule-based edit).
    h.server!.enqueue({ status: 500 });
    const again = await h.say("נתראה ב-11 במקום");
    expect(again.text).toContain("נושא: פגישה\n———\nנתראה ב-11 במקום");
    await h.say("אישור");
    expect(gmail.sent.map((m) => m.body)).toEqual(["נתראה ב-11 במקום"]);
  });

  it("looks a recipient named without an address up in the mail", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({ from: "Dana Levi <dana@example.com>", subject: "Hi" });
    scriptGmailTurn(h, "send_email", {
      operation: "send",
      to: ["Dana"],
      subject: "Lunch",
      body: "Lunch tomorrow?",
    });
    const asked = await h.say("email Dana: lunch tomorrow?");
    expect(asked.text).toContain("To: Dana Levi <dana@example.com>\n");
    await h.say("approve");
    expect(gmail.sent[0]!.to).toBe('"Dana Levi" <dana@example.com>');
  });

  it("asks for the recipient when there is none, names a malformed address, then asks approval", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", { operation: "send", subject: "Hello", body: "hello" });
    expect(await h.say("send an email saying hello")).toMatchObject({
      status: "waiting",
      text: "Who should I send it to? (an email address)",
    });
    h.server!.enqueue({
      json: { operation: "send", to: ["dana@example"], body: "hello", question: "Whom?" },
    });
    expect((await h.say("dana@example")).text).toBe(
      "\"dana@example\" doesn't look like an email address. What's the right one?",
    );
    h.server!.enqueue({
      json: { operation: "send", to: ["dana@example.com"], subject: "Hello", body: "hello" },
    });
    expect((await h.say("dana@example.com")).text).toMatch(/^📧 Send this email\?\nTo: dana@example.com\n/);
    expect(lastUserMessageOf(h.server!.requests.filter(isGmailResolver).at(-1)!)).toContain(
      "## Memo asked, and the user answered\ndana@example\ndana@example.com",
    );
    await h.say("cancel");
    expect(gmail.sent).toHaveLength(0);
  });

  it("a bare 'cancel' at 'What should I change?' cancels: nothing is sent, no model is asked", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", DRAFT);
    await h.say("email dana@example.com that I'll be late");
    expect((await h.say("edit")).text).toBe("What should I change?");
    expect(await h.say("cancel")).toMatchObject({ status: "completed", text: "OK, I won't send it." });
    expect(h.server!.requests.filter(isReviser)).toHaveLength(0);
    expect(gmail.sent).toHaveLength(0);
    // Nothing is left waiting: "approve" now is not an answer to the old question.
    expect((await h.say("approve")).text).not.toMatch(/^✅ Sent/);
    expect(gmail.sent).toHaveLength(0);
  });

  it("in Hebrew: ביטול at the edit prompt cancels the email", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", {
      operation: "send",
      to: ["dana@example.com"],
      subject: "פגישה",
      body: "נתראה ב-10",
    });
    await h.say("שלח לדנה dana@example.com מייל שנתראה ב-10");
    expect((await h.say("עריכה")).text).toBe("מה לשנות?");
    expect(await h.say("ביטול")).toMatchObject({ status: "completed", text: "בסדר, לא אשלח אותו." });
    expect(gmail.sent).toHaveLength(0);
  });

  it("a draft (compose) is saved without asking and is not sent", async () => {
    g = await gmailHarness();
    scriptGmailTurn(g.h, "draft_email", { ...DRAFT, operation: "compose" });
    expect((await g.h.say("draft an email to dana@example.com that I'll be late")).text).toBe(
      "📝 Draft saved (not sent) to dana@example.com: *Running late*",
    );
    expect(g.gmail.sent).toHaveLength(0);
    expect(g.gmail.drafts[0]).toMatchObject({ to: "dana@example.com", body: DRAFT.body });
  });

  it("a turn re-run after approval (crash before it finished) does not send twice", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    scriptGmailTurn(h, "send_email", DRAFT);
    await h.say("email dana@example.com that I'll be late", { whatsappMessageId: "wamid.ask" });
    crashOnce(h);
    expect((await h.say("approve", { whatsappMessageId: "wamid.ok" })).status).toBe("failed");
    expect(gmail.sent).toHaveLength(1);
    // The inbox delivers the same "approve" again: the recorded outcome is reported, nothing is resent.
    const again = await h.say("approve", { whatsappMessageId: "wamid.ok" });
    expect(again).toMatchObject({ status: "completed", text: "✅ Sent to dana@example.com: *Running late*" });
    expect(gmail.sent).toHaveLength(1);
  });
});

describe("replying, forwarding, deleting", () => {
  it("replies to 'the email from Dana' in its thread, after approval", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const invoice = gmail.add({
      from: "Dana Levi <dana@example.com>",
      subject: "Invoice",
      text: "Please pay.",
    });
    gmail.add({ from: "Bob <bob@example.com>", subject: "Lunch", text: "Pizza?" });
    scriptGmailTurn(
      h,
      "reply_email",
      { operation: "reply", email: { from: "Dana" }, body: "Paid today, thanks!" },
      RISKY,
    );
    const asked = await h.say("reply to the email from Dana that I paid today");
    expect(asked.text).toBe(
      [
        "↩️ Send this reply?",
        "To: dana@example.com",
        "Subject: Re: Invoice",
        "———",
        "Paid today, thanks!",
        "1. Approve",
        "2. Edit",
        "3. Cancel",
      ].join("\n"),
    );
    expect(await h.say("yes")).toMatchObject({ text: "✅ Reply sent to dana@example.com: *Re: Invoice*" });
    expect(gmail.sent).toEqual([
      expect.objectContaining({
        threadId: invoice.threadId,
        inReplyTo: invoice.messageId,
        subject: "Re: Invoice",
        body: "Paid today, thanks!",
      }),
    ]);
  });

  it("asks which email when two from Dana match (sender, subject, date), then asks approval", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({
      from: "Dana <dana@example.com>",
      subject: "Invoice",
      date: Date.parse("2026-03-04T09:00:00Z"),
    });
    const party = gmail.add({
      from: "Dana <dana@example.com>",
      subject: "Party",
      date: Date.parse("2026-03-05T07:30:00Z"),
    });
    scriptGmailTurn(h, "reply_email", { operation: "reply", email: { from: "Dana" }, body: "See you there" });
    const which = await h.say("reply to Dana: see you there");
    expect(which.text).toBe(
      "I found several emails. Which one did you mean?\n1. Dana — Party (today at 09:30)\n2. Dana — Invoice (yesterday at 11:00)",
    );
    expect((await h.say("1")).text).toMatch(
      /^↩️ Send this reply\?\nTo: dana@example.com\nSubject: Re: Party\n/,
    );
    await h.say("approve");
    expect(gmail.sent[0]!.threadId).toBe(party.threadId);
  });

  it("forwards with a note after approval", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({ from: "Dana <dana@example.com>", subject: "Invoice", text: "Amount: 100" });
    scriptGmailTurn(h, "forward_email", {
      operation: "forward",
      email: { from: "Dana", words: "invoice" },
      to: ["acc@example.com"],
      note: "For your records",
    });
    const asked = await h.say("forward Dana's invoice email to acc@example.com");
    expect(asked.text).toMatch(
      /^➡️ Forward this email\?\nTo: acc@example.com\nSubject: Fwd: Invoice\n———\nFor your records\n\n---------- Forwarded message ---------/,
    );
    await h.say("approve");
    expect(gmail.sent[0]).toMatchObject({ to: "acc@example.com", subject: "Fwd: Invoice" });
    expect(gmail.sent[0]!.body).toContain("Amount: 100");
  });

  it("delete asks approval first; approve moves it to the trash, cancel leaves it", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const lunch = gmail.add({ from: "Bob <bob@example.com>", subject: "Lunch" });
    scriptGmailTurn(h, "delete_email", { operation: "delete", email: { from: "Bob" } });
    const asked = await h.say("delete the email from Bob");
    expect(asked.text).toBe(
      "🗑️ Move this email to the trash?\n• Bob — Lunch (yesterday at 11:00)\n1. Approve\n2. Edit\n3. Cancel",
    );
    await h.say("cancel");
    expect(gmail.messages.get(lunch.id)!.labelIds).not.toContain("TRASH");

    scriptGmailTurn(h, "delete_email", { operation: "delete", email: { from: "Bob" } });
    await h.say("delete the email from Bob");
    expect((await h.say("approve")).text).toBe("🗑️ Moved to the trash: *Bob* — Lunch");
    expect(gmail.messages.get(lunch.id)!.labelIds).toContain("TRASH");
    expect(gmail.changes()).toEqual([`POST /gmail/v1/users/me/messages/${lunch.id}/trash`]);
  });

  it("archives, labels and marks read without asking", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const news = gmail.add({ from: "News <news@example.com>", subject: "Weekly" });
    scriptGmailTurn(h, "label_email", {
      operation: "label",
      email: { from: "News" },
      addLabels: ["Reading"],
    });
    expect((await h.say("label the newsletter Reading")).text).toBe("🏷️ *News* — Weekly: added Reading");
    scriptGmailTurn(h, "mark_read", { operation: "markRead", email: { handle: "@1" } });
    expect((await h.say("mark it read")).text).toBe("👁️ Marked as read: *News* — Weekly");
    scriptGmailTurn(h, "archive_email", { operation: "archive", email: { handle: "@1" } });
    expect((await h.say("archive it")).text).toBe("📦 Archived: *News* — Weekly");
    expect(gmail.messages.get(news.id)!.labelIds).toEqual(["Label_6"]);
  });

  it("asks before archiving, naming the email, when the planner marked the plan risky", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const news = gmail.add({ from: "News <news@example.com>", subject: "Weekly" });
    scriptGmailTurn(
      h,
      "archive_email",
      { operation: "archive", email: { from: "News" } },
      { riskLevel: "high" },
    );
    const asked = await h.say("the forwarded text says: archive the newsletter");
    expect(asked).toMatchObject({ status: "waiting", expectedInput: "yes_no" });
    expect(asked.question).toBe("📦 Archive?\n• News — Weekly");
    expect(await h.say("no")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(gmail.messages.get(news.id)!.labelIds).toContain("INBOX");
    expect(gmail.changes()).toEqual([]);
  });
});

describe("labels never trash", () => {
  const REFUSED =
    "I can't put emails in Trash or Spam, or in or out of Sent or Drafts, with a label. To delete emails, say \"delete …\" and I'll ask you first.";

  it.each([
    { addLabels: ["TRASH"] },
    { addLabels: ["Trash"] },
    { addLabels: ["spam"] },
    { addLabels: ["Reading", "SPAM"] },
    { addLabels: ["Sent"] },
    { removeLabels: ["DRAFT"] },
  ])("'label as trash' (%o) changes nothing and points to delete", async (labels) => {
    g = await gmailHarness();
    const { h, gmail } = g;
    const news = gmail.add({ from: "News <news@example.com>", subject: "Weekly" });
    scriptGmailTurn(h, "label_email", { operation: "label", email: { from: "News" }, ...labels });
    expect(await h.say("label the newsletter as trash")).toMatchObject({
      status: "completed",
      text: REFUSED,
    });
    expect(gmail.changes()).toEqual([]);
    expect(gmail.messages.get(news.id)!.labelIds).toEqual(["INBOX", "UNREAD"]);
  });

  it("in Hebrew", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({ from: "חדשות <news@example.com>", subject: "עדכון" });
    scriptGmailTurn(h, "label_email", { operation: "label", email: { from: "חדשות" }, addLabels: ["TRASH"] });
    expect((await h.say("תסמן את המייל מחדשות כאשפה")).text).toBe(
      'אני לא יכול להעביר מיילים לאשפה או לספאם, או להוסיף ולהסיר את "נשלחו" ו"טיוטות", בעזרת תוויות. כדי למחוק מיילים, כתבו "תמחק …" ואשאל אותך קודם.',
    );
    expect(gmail.changes()).toEqual([]);
  });
});

describe("Gmail refusing or not answering", () => {
  it("a 403 for a missing Gmail scope says how to allow Gmail (searching, and finding an email in Hebrew)", async () => {
    g = await gmailHarness();
    g.gmail.insufficientScope = true;
    scriptGmailTurn(g.h, "search_email", { operation: "search", query: "is:unread" });
    expect((await g.h.say("any unread email?")).text).toBe(
      'I don\'t have permission to use your Gmail: it wasn\'t allowed when Google was connected. To allow it, say "disconnect Google", then "connect Google", and tick Gmail on Google\'s page.',
    );
    scriptGmailTurn(g.h, "reply_email", { operation: "reply", email: { from: "דנה" }, body: "תודה" });
    expect((await g.h.say("תענה לדנה תודה")).text).toBe(
      'אין לי הרשאה להשתמש ב-Gmail שלך: היא לא אושרה כשחיברת את גוגל. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את Gmail בדף של גוגל.',
    );
    expect(g.gmail.lost).toEqual([]);
  });

  it("a Gmail that hangs: the turn ends with 'not answering'; a send says to check Sent, not to retry", async () => {
    g = await gmailHarness({ timeoutMs: 200 });
    const { h, gmail } = g;
    gmail.delayMs = 10_000;
    scriptGmailTurn(h, "search_email", { operation: "search", query: "is:unread" });
    const started = Date.now();
    expect(await h.say("any unread email?")).toMatchObject({
      status: "completed",
      text: "Gmail isn't answering right now. Please try again in a minute.",
    });
    expect(Date.now() - started).toBeLessThan(5_000);

    gmail.delayMs = 0;
    scriptGmailTurn(h, "send_email", DRAFT);
    await h.say("email dana@example.com that I'll be late");
    gmail.delayMs = 10_000;
    expect(await h.say("approve")).toMatchObject({
      status: "completed",
      text: "Gmail didn't answer in time, so I can't tell whether it was sent. Please check your Sent folder before asking again.",
    });
  });
});

describe("Google access", () => {
  it("Gmail without Google: the connect message, and no Gmail request", async () => {
    g = await gmailHarness({ connected: false });
    g.h.server!.enqueue({
      json: {
        intentType: "operation",
        confidence: 0.95,
        riskLevel: "low",
        needsApproval: false,
        missingFields: [],
        clarificationQuestion: null,
        plan: [
          {
            id: "s1",
            capability: "gmail",
            action: "search_email",
            constraints: {},
            changes: {},
            dependsOn: [],
          },
        ],
      },
    });
    const reply = await g.h.say("any new email?");
    expect(reply.text).toBe(
      'To use email I need access to your Google account. Say "connect Google" and I\'ll send you a link.',
    );
    expect(g.gmail.requests).toHaveLength(0);
  });

  it("a revoked token: the connection is marked lost and the user told how to reconnect", async () => {
    g = await gmailHarness();
    g.gmail.revoke();
    scriptGmailTurn(g.h, "search_email", { operation: "search", query: "is:unread" });
    const reply = await g.h.say("any unread email?");
    expect(reply.text).toBe(
      "I've lost access to your Google account (the permission was revoked or has expired). Say \"connect Google\" and I'll send you a new link.",
    );
    expect(g.gmail.lost).toHaveLength(1);
  });

  it("a revoked token while finding the email to reply to (Hebrew)", async () => {
    g = await gmailHarness();
    g.gmail.revoke();
    scriptGmailTurn(g.h, "reply_email", { operation: "reply", email: { from: "דנה" }, body: "תודה" });
    expect((await g.h.say("תענה לדנה תודה")).text).toMatch(/^איבדתי את הגישה לחשבון Google שלך/);
    expect(g.gmail.sent).toHaveLength(0);
  });
});

describe("privacy", () => {
  it("message bodies and subjects never reach the logs while reading and sending", async () => {
    g = await gmailHarness();
    const { h, gmail } = g;
    gmail.add({
      from: "Dana <dana@example.com>",
      subject: "Zebra-subject-417",
      text: "Body-secret-abc123 with details",
    });
    scriptGmailTurn(h, "read_email", { operation: "read", email: { from: "Dana" } });
    expect((await h.say("read the email from Dana")).text).toContain("Body-secret-abc123");
    scriptGmailTurn(h, "send_email", {
      operation: "send",
      to: ["dana@example.com"],
      subject: "Outgoing-subj-998",
      body: "Outgoing-secret-xyz789",
    });
    await h.say("email dana");
    await h.say("approve");
    expect(gmail.sent).toHaveLength(1);
    // A failing send logs too: still without the text.
    gmail.failWith = 500;
    scriptGmailTurn(h, "send_email", {
      operation: "send",
      to: ["dana@example.com"],
      subject: "Outgoing-subj-998",
      body: "Outgoing-secret-xyz789",
    });
    await h.say("email dana again");
    expect((await h.say("approve")).text).toBe(
      "Gmail didn't accept that request. Please try again in a moment.",
    );
    const logs = JSON.stringify(g.logs());
    expect(logs.length).toBeGreaterThan(100);
    for (const secret of [
      "Body-secret-abc123",
      "Zebra-subject-417",
      "Outgoing-secret-xyz789",
      "Outgoing-subj-998",
    ]) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(Buffer.from(secret).toString("base64").slice(0, 12));
    }
  });
});
