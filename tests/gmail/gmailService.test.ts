// GmailService against the local Gmail v1 stand-in: what Memo reads, and exactly what it sends.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forwardDraft, replyDraft } from "../../src/services/gmail/drafts.js";
import { GmailRequestError, GmailService } from "../../src/services/gmail/gmailService.js";
import { htmlToText } from "../../src/services/gmail/messageText.js";
import {
  buildMime,
  decodeHeaderWords,
  encodeHeaderWords,
  isEmailAddress,
} from "../../src/services/gmail/mime.js";
import { GOOGLE_TIMEOUT_MS, GoogleConnectionLostError } from "../../src/services/google/types.js";
import { FakeGmail, ME } from "../support/fakeGmail.js";
import { captureLogs } from "../support/logs.js";

const PHONE = "972501234567";
let gmail: FakeGmail;
beforeEach(async () => {
  gmail = await FakeGmail.start();
});
afterEach(async () => gmail.close());

function service() {
  const { logger, lines } = captureLogs();
  return { mailbox: () => new GmailService(gmail.accounts(), logger).forUser(PHONE), lines };
}

describe("MIME", () => {
  it("encodes a Hebrew subject as RFC 2047 words of at most 75 characters, and decodes it back", () => {
    const subject = "חשבונית לחודש מרץ — תשלום עד סוף השבוע, תודה רבה על הסבלנות";
    const encoded = encodeHeaderWords(subject);
    expect(encoded).toMatch(/^=\?UTF-8\?B\?/);
    for (const word of encoded.split("\r\n ")) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeHeaderWords(encoded.replace(/\r\n/g, ""))).toBe(subject);
    expect(encodeHeaderWords("Plain subject")).toBe("Plain subject");
  });

  it("never lets a header value start a new header (CR/LF injection)", () => {
    const mime = buildMime({ to: ["a@example.com"], subject: "Hi\r\nBcc: evil@example.com", body: "x" });
    expect(mime).not.toMatch(/^Bcc:/m);
    expect(mime).toContain("Subject: Hi Bcc: evil@example.com");
  });

  it("validates addresses", () => {
    expect(isEmailAddress("dana@example.com")).toBe(true);
    expect(isEmailAddress("dana.levi+work@mail.example.co.il")).toBe(true);
    for (const bad of [
      "dana",
      "dana@",
      "@example.com",
      "dana@example",
      "da na@example.com",
      "a..b@example.com",
    ])
      expect(isEmailAddress(bad)).toBe(false);
  });

  it("turns HTML into readable text", () => {
    expect(
      htmlToText(
        "<html><head><style>p{}</style></head><body><p>Hi&nbsp;Dana,</p><ul><li>one</li><li>two &amp; three</li></ul><script>x()</script>Bye<br>Me</body></html>",
      ),
    ).toBe("Hi Dana,\n\n• one\n• two & three\nBye\nMe");
  });
});

describe("GmailService over the Gmail v1 stand-in", () => {
  it("searches with the query and reads headers; prefers text/plain, else the HTML as text", async () => {
    gmail.add({
      from: "Dana Levi <dana@example.com>",
      subject: "Invoice March",
      text: "Plain body",
      html: "<p>HTML body</p>",
    });
    gmail.add({ from: "Bob <bob@example.com>", subject: "Lunch", html: "<div>Let's <b>eat</b></div>" });
    const { mailbox } = service();
    const box = await mailbox();
    const found = await box.search("from:dana invoice", 5);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      from: "Dana Levi",
      fromAddress: "dana@example.com",
      subject: "Invoice March",
      unread: true,
    });
    const list = gmail.requests.find((r) => r.path.endsWith("/messages") && r.method === "GET")!;
    expect(list.query.get("q")).toBe("from:dana invoice");
    expect(list.query.get("maxResults")).toBe("5");
    expect(list.authorization).toBe("Bearer test");
    expect((await box.getMessage(found[0]!.id)).body).toBe("Plain body");
    const lunch = (await box.search("Lunch"))[0]!;
    expect((await box.getMessage(lunch.id)).body).toBe("Let's eat");
  });

  it("decodes an RFC 2047 Hebrew subject as a sender wrote it", async () => {
    const subject = "פגישה מחר";
    gmail.add({
      from: "a@example.com",
      subject,
      rawSubject: `=?UTF-8?B?${Buffer.from(subject).toString("base64")}?=`,
    });
    const box = await service().mailbox();
    expect((await box.search("in:inbox"))[0]!.subject).toBe(subject);
  });

  it("sends UTF-8 mail: Hebrew subject and body arrive intact", async () => {
    const box = await service().mailbox();
    await box.send({
      to: ["Dana Levi <dana@example.com>"],
      cc: ["bob@example.com"],
      subject: "שלום דנה",
      body: "היי דנה,\nנתראה מחר.\nתודה",
    });
    expect(gmail.sent).toHaveLength(1);
    expect(gmail.sent[0]).toMatchObject({
      to: '"Dana Levi" <dana@example.com>',
      cc: "bob@example.com",
      subject: "שלום דנה",
      body: "היי דנה,\nנתראה מחר.\nתודה",
      threadId: null,
    });
    expect(gmail.sent[0]!.mime).toContain('Content-Type: text/plain; charset="UTF-8"');
  });

  it("replies in the thread with In-Reply-To, References and 'Re:'", async () => {
    const original = gmail.add({
      from: "Dana <dana@example.com>",
      subject: "Invoice",
      text: "Please pay",
      references: "<older@mail.example.com>",
      replyTo: "billing@example.com",
    });
    const box = await service().mailbox();
    await box.send(replyDraft(await box.getMessage(original.id), "Paid, thanks"));
    expect(gmail.sent[0]).toMatchObject({
      to: "billing@example.com",
      subject: "Re: Invoice",
      body: "Paid, thanks",
      threadId: original.threadId,
      inReplyTo: original.messageId,
      references: `<older@mail.example.com> ${original.messageId}`,
    });
  });

  it("forwards the text under a note with 'Fwd:'", async () => {
    const original = gmail.add({ from: "Dana <dana@example.com>", subject: "Invoice", text: "Amount: 100" });
    const box = await service().mailbox();
    await box.send(forwardDraft(await box.getMessage(original.id), ["acc@example.com"], "FYI"));
    expect(gmail.sent[0]!.subject).toBe("Fwd: Invoice");
    expect(gmail.sent[0]!.body).toMatch(
      /^FYI\n\n---------- Forwarded message ---------\nFrom: Dana <dana@example.com>/,
    );
    expect(gmail.sent[0]!.body).toContain("Amount: 100");
  });

  it("labels by name (creating a missing label), archives, marks read and trashes (never deletes)", async () => {
    const m = gmail.add({ from: "a@example.com", subject: "x" });
    const box = await service().mailbox();
    expect(await box.modifyLabels([m.id], { add: ["Receipts", "starred"], remove: ["nope"] })).toEqual({
      added: ["Receipts", "STARRED"],
      removed: [],
    });
    expect(gmail.labels.some((l) => l.name === "Receipts")).toBe(true);
    await box.markRead([m.id]);
    await box.archive([m.id]);
    expect(gmail.messages.get(m.id)!.labelIds.sort()).toEqual(["Label_6", "STARRED"].sort());
    await box.trash([m.id]);
    expect(gmail.messages.get(m.id)!.labelIds).toContain("TRASH");
    expect(gmail.changes()).not.toContain(expect.stringMatching(/DELETE/));
  });

  it("never moves mail to Trash or Spam, or in or out of Sent or Drafts, through labels", async () => {
    const m = gmail.add({ from: "a@example.com", subject: "x" });
    const box = await service().mailbox();
    for (const change of [
      { add: ["TRASH"] },
      { add: ["trash"] },
      { add: ["Spam"] },
      { add: ["Receipts", "SENT"] },
      { add: ["DRAFT"] },
      { remove: ["SENT"] },
      { remove: ["draft"] },
    ]) {
      await expect(box.modifyLabels([m.id], change), JSON.stringify(change)).rejects.toMatchObject({
        status: 400,
        reason: "protected_label",
      });
    }
    expect(gmail.changes()).toEqual([]);
    expect(gmail.labels.some((l) => l.name === "Receipts")).toBe(false);
    // Taking mail out of Spam or Trash is a restore, not a deletion: allowed.
    const spam = gmail.add({ from: "b@example.com", subject: "y", labelIds: ["SPAM"] });
    expect(await box.modifyLabels([spam.id], { remove: ["spam"], add: ["inbox"] })).toEqual({
      added: ["INBOX"],
      removed: ["SPAM"],
    });
    expect(gmail.messages.get(spam.id)!.labelIds).toEqual(["INBOX"]);
  });

  it("a 403 for a missing scope is 'no_permission'; a Gmail that hangs past the timeout is 'timeout'", async () => {
    expect(GOOGLE_TIMEOUT_MS).toBe(15_000);
    gmail.insufficientScope = true;
    await expect((await service().mailbox()).search("x")).rejects.toMatchObject({
      status: 403,
      reason: "no_permission",
    });
    gmail.insufficientScope = false;
    gmail.delayMs = 10_000;
    const { logger } = captureLogs();
    const box = await new GmailService(gmail.accounts(), logger, { timeoutMs: 150 }).forUser(PHONE);
    const started = Date.now();
    await expect(box.send({ to: [ME], subject: "s", body: "b" })).rejects.toMatchObject({
      status: null,
      reason: "timeout",
    });
    // A send is a POST: never retried, so it gives up after one timeout.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(gmail.requests.filter((r) => r.path.endsWith("/messages/send"))).toHaveLength(1);
  });

  it("a revoked token marks the connection lost and throws GoogleConnectionLostError", async () => {
    gmail.revoke();
    const box = await service().mailbox();
    await expect(box.search("x")).rejects.toBeInstanceOf(GoogleConnectionLostError);
    expect(gmail.lost).toEqual([PHONE]);
    expect(gmail.requests.some((r) => r.path === "/token")).toBe(true);
  });

  it("other failures carry only the status (never the request, which may hold the message)", async () => {
    const { mailbox, lines } = service();
    const box = await mailbox();
    await expect(box.getMessage("missing")).rejects.toMatchObject({ status: 404, reason: "not_found" });
    gmail.failWith = 400;
    const error = await box
      .send({ to: [ME], subject: "Secret subject", body: "Secret body" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GmailRequestError);
    expect(JSON.stringify(error)).not.toContain("U2VjcmV0"); // no base64 of the body
    expect(JSON.stringify(lines())).not.toMatch(/Secret/);
  });
});
