// The gmail capability's pieces on their own: at-most-once sending, the rule-based edit, queries,
// completeness checks and the extractive thread summary.
import { describe, expect, it } from "vitest";
import type { OperationLedger } from "../../src/db/repositories/operationLedger.js";
import { createGmailExecutor } from "../../src/graph/capabilities/gmail/gmailExecutor.js";
import { missingForGmail } from "../../src/graph/capabilities/gmail/gmailResolver.js";
import type { CapabilityContext } from "../../src/types/capability.js";
import type { MemoState } from "../../src/types/state.js";
import { GmailRequestError, type EmailMessage, type Mailbox } from "../../src/services/gmail/gmailService.js";
import { firstLines } from "../../src/services/gmail/replies.js";
import { extractiveSummary, freshText } from "../../src/services/gmail/summarize.js";
import { applyChangeByRule, referenceQuery } from "../../src/graph/capabilities/gmail/gmailEntityResolver.js";
import { captureLogs } from "../support/logs.js";

/** An OperationLedger in memory. */
function memoryLedger(): OperationLedger & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: (phone, id) => Promise.resolve(entries.get(`${phone}|${id}`)),
    record: (phone, id, outcome) => {
      if (entries.has(`${phone}|${id}`)) return Promise.resolve(false);
      entries.set(`${phone}|${id}`, outcome);
      return Promise.resolve(true);
    },
  };
}

function context(operationId: string) {
  return {
    state: { user: { timezone: "Asia/Jerusalem" } } as unknown as MemoState,
    llm: null,
    logger: captureLogs().logger,
    now: Date.parse("2026-03-05T10:00:00Z"),
    language: "en" as const,
    phone: "972501234567",
    answers: [],
    dependencies: [],
    operationId,
    step: {
      id: "s1",
      capability: "gmail" as const,
      action: "send_email",
      constraints: {},
      changes: {},
      dependsOn: [],
    },
  } satisfies CapabilityContext & { operationId: string; step: unknown };
}

const DRAFT = { to: ["dana@example.com"], subject: "Hi", body: "Hello" };

describe("GmailExecutor sends at most once", () => {
  it("a send whose outcome is unknown (connection dropped) is not retried by a re-run: it says it may have gone", async () => {
    const ledger = memoryLedger();
    let sends = 0;
    const mailbox = {
      send: () => {
        sends += 1;
        return Promise.reject(new GmailRequestError(null, "failed"));
      },
    } as unknown as Mailbox;
    const executor = createGmailExecutor(
      { forUser: () => Promise.resolve(mailbox) },
      ledger,
      captureLogs().logger,
    );
    const first = await executor.execute(
      "gmail.send",
      { operation: "send", draft: DRAFT },
      context("trace:s1"),
    );
    expect(first).toMatchObject({ success: false, errorCode: "GMAIL_FAILED" });
    const again = await executor.execute(
      "gmail.send",
      { operation: "send", draft: DRAFT },
      context("trace:s1"),
    );
    expect(again).toMatchObject({ success: false, errorCode: "MAYBE_SENT" });
    expect(again.error).toMatch(/check your Sent folder/);
    expect(sends).toBe(1);
  });

  it("a send that timed out is not definite: it says to check Sent, and a re-run does not send again", async () => {
    const ledger = memoryLedger();
    let sends = 0;
    const mailbox = {
      send: () => {
        sends += 1;
        return Promise.reject(new GmailRequestError(null, "timeout"));
      },
    } as unknown as Mailbox;
    const executor = createGmailExecutor(
      { forUser: () => Promise.resolve(mailbox) },
      ledger,
      captureLogs().logger,
    );
    const args = { operation: "send", draft: DRAFT };
    expect(await executor.execute("gmail.send", args, context("trace:s1"))).toEqual({
      success: false,
      errorCode: "GMAIL_TIMEOUT",
      error:
        "Gmail didn't answer in time, so I can't tell whether it was sent. Please check your Sent folder before asking again.",
    });
    expect(ledger.entries.has("972501234567|trace:s1")).toBe(false);
    expect(await executor.execute("gmail.send", args, context("trace:s1"))).toMatchObject({
      success: false,
      errorCode: "MAYBE_SENT",
    });
    expect(sends).toBe(1);
  });

  it("a definite refusal (4xx) is recorded: a re-run reports it without sending", async () => {
    const ledger = memoryLedger();
    let sends = 0;
    const mailbox = {
      send: () => {
        sends += 1;
        return Promise.reject(new GmailRequestError(400, "failed"));
      },
    } as unknown as Mailbox;
    const executor = createGmailExecutor(
      { forUser: () => Promise.resolve(mailbox) },
      ledger,
      captureLogs().logger,
    );
    await executor.execute("gmail.send", { operation: "send", draft: DRAFT }, context("trace:s1"));
    const again = await executor.execute(
      "gmail.send",
      { operation: "send", draft: DRAFT },
      context("trace:s1"),
    );
    expect(again).toMatchObject({ success: false, errorCode: "GMAIL_FAILED" });
    expect(sends).toBe(1);
  });

  it("a sent message is recorded without its body", async () => {
    const ledger = memoryLedger();
    const mailbox = { send: () => Promise.resolve({ id: "m9", threadId: "t9" }) } as unknown as Mailbox;
    const executor = createGmailExecutor(
      { forUser: () => Promise.resolve(mailbox) },
      ledger,
      captureLogs().logger,
    );
    const sent = await executor.execute(
      "gmail.send",
      { operation: "send", draft: { ...DRAFT, body: "Body-123" } },
      context("t:s1"),
    );
    expect(sent).toMatchObject({
      success: true,
      data: { kind: "sent", to: ["dana@example.com"], subject: "Hi" },
    });
    expect(JSON.stringify([...ledger.entries.values()])).not.toContain("Body-123");
  });
});

describe("rule-based edit (no model)", () => {
  const current = { to: ["a@example.com"], cc: [], subject: "Old", body: "Old text" };
  it("subject:, to:, cc and otherwise the new text", () => {
    expect(applyChangeByRule(current, "subject: New plan")).toMatchObject({
      subject: "New plan",
      body: "Old text",
    });
    expect(applyChangeByRule(current, "נושא: תוכנית")).toMatchObject({ subject: "תוכנית" });
    expect(applyChangeByRule(current, "to: b@example.com, c@example.com")).toMatchObject({
      to: ["b@example.com", "c@example.com"],
    });
    expect(applyChangeByRule(current, "cc bob@example.com")).toMatchObject({ cc: ["bob@example.com"] });
    expect(applyChangeByRule(current, "Let's meet at 11 instead")).toMatchObject({
      to: ["a@example.com"],
      subject: "Old",
      body: "Let's meet at 11 instead",
    });
  });
});

describe("queries and checks", () => {
  it("builds a Gmail query from the user's words", () => {
    expect(referenceQuery({ from: "Dana Levi", subject: "invoice", words: "March" })).toBe(
      'from:"Dana Levi" subject:(invoice) March',
    );
    expect(referenceQuery({ from: "דנה" })).toBe("from:דנה");
    expect(referenceQuery({})).toBe("");
  });

  it("asks for what an operation cannot go without", () => {
    expect(missingForGmail({ operation: "send", body: "x" }, "en")).toBe(
      "Who should I send it to? (an email address)",
    );
    expect(missingForGmail({ operation: "send", to: ["a@example.com"] }, "he")).toBe("מה לכתוב במייל?");
    expect(missingForGmail({ operation: "forward", email: { from: "Dana" } }, "en")).toMatch(/forward it to/);
    expect(missingForGmail({ operation: "send", to: ["a@b"], body: "x" }, "en")).toMatch(/doesn't look like/);
    expect(missingForGmail({ operation: "send", to: ["Dana"], body: "x" }, "en")).toBeNull();
    expect(missingForGmail({ operation: "label", email: { from: "x" } }, "en")).toBe("Which label?");
    expect(missingForGmail({ operation: "search" }, "en")).toBeNull();
  });

  it("approval questions show at most the first lines of a long body", () => {
    const body = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(firstLines(body, "en")).toBe("line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n… (shortened)");
    expect(firstLines("word ".repeat(200), "en").length).toBeLessThan(420);
  });
});

describe("extractive thread summary", () => {
  const message = (from: string, body: string, hour: number): EmailMessage => ({
    id: `m${hour}`,
    threadId: "t",
    from,
    fromAddress: `${from.toLowerCase()}@example.com`,
    to: [],
    cc: [],
    subject: "Trip",
    date: new Date(Date.UTC(2026, 2, 4, hour)).toISOString(),
    snippet: "",
    unread: false,
    replyAddress: "",
    body,
    messageId: null,
    references: null,
  });

  it("who said what, then the latest message in full, quoted history left out, bounded", () => {
    const messages = [
      message("Dana Levi", "Shall we go to Eilat?\nFirst week of April.", 8),
      message("Bob", "I'm in!\n\nOn Wed, Dana wrote:\n> Shall we go", 9),
      message(
        "Dana Levi",
        "Great. I'll book the hotel.\nSend me your dates.\n\nOn Wed, Bob wrote:\n> I'm in!",
        10,
      ),
    ];
    const summary = extractiveSummary(messages, "en", (iso) => iso.slice(11, 16));
    expect(summary).toBe(
      [
        "• *Dana* (08:00): Shall we go to Eilat?",
        "• *Bob* (09:00): I'm in!",
        "",
        "Latest: *Dana Levi* (10:00)",
        "Great. I'll book the hotel.\nSend me your dates.",
      ].join("\n"),
    );
    const long = Array.from({ length: 12 }, (_, i) => message("Dana", "x ".repeat(1500), i));
    const bounded = extractiveSummary(long, "he", (iso) => iso);
    expect(bounded.length).toBeLessThanOrEqual(1400);
    expect(bounded).toMatch(/^\(ועוד 7 הודעות קודמות\)/);
  });

  it("freshText cuts quoted history in English and Hebrew", () => {
    expect(freshText("Yes\n\nOn Mon, 2 Mar 2026, Dana <d@x.com> wrote:\n> q")).toBe("Yes");
    expect(freshText("כן\nבתאריך יום ב׳, דנה כתבה:\n> שאלה")).toBe("כן");
    expect(freshText("FYI\n---------- Forwarded message ---------\nFrom: x")).toBe("FYI");
  });
});
