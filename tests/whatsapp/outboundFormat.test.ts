import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLimiter } from "../../src/utils/concurrency.js";
import { GraphApiClient } from "../../src/transport/whatsapp/graphApiClient.js";
import {
  buildReplyPayloads,
  splitText,
  TEXT_LIMIT,
  truncate,
  type InteractivePayload,
  type OutboundPayload,
  type TextPayload,
} from "../../src/transport/whatsapp/outboundFormat.js";
import { type ReplyContent } from "../../src/types/outbound.js";
import type { HITLOption } from "../../src/types/index.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { captureLogs } from "../support/logs.js";

const TO = "972501234567";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A sentence-rich paragraph of about `length` characters. */
function paragraph(length: number, sentence = "The quick brown fox jumps over the lazy dog. "): string {
  return sentence
    .repeat(Math.ceil(length / sentence.length))
    .slice(0, length)
    .trim();
}

function options(...labels: string[]): HITLOption[] {
  return labels.map((label, i) => ({ id: `opt_${i + 1}`, label }));
}

function numbered(question: string, opts: HITLOption[]): string {
  return `${question}\n${opts.map((o, i) => `${i + 1}. ${o.label}`).join("\n")}`;
}

function question(
  q: string,
  opts: HITLOption[],
  expectedInput: ReplyContent["expectedInput"] = "single_choice",
  language: "he" | "en" = "en",
): ReplyContent {
  return { text: numbered(q, opts), question: q, options: opts, expectedInput, language };
}

function interactive(payload: OutboundPayload | undefined): InteractivePayload["interactive"] {
  if (payload?.type !== "interactive")
    throw new Error(`expected an interactive payload, got ${payload?.type}`);
  return payload.interactive;
}

function textBody(payload: OutboundPayload | undefined): string {
  if (payload?.type !== "text") throw new Error(`expected a text payload, got ${payload?.type}`);
  return payload.text.body;
}

describe("splitText", () => {
  it("keeps a text that fits as one piece and drops blank text", () => {
    expect(splitText("Hello there")).toEqual(["Hello there"]);
    expect(splitText("  \n\n ")).toEqual([]);
    expect(splitText("x".repeat(TEXT_LIMIT))).toEqual(["x".repeat(TEXT_LIMIT)]);
  });

  it("splits at 4096 on paragraph boundaries, packing whole paragraphs", () => {
    const [a, b, c] = [paragraph(1500), paragraph(1800), paragraph(2000)];
    const chunks = splitText(`${a}\n\n${b}\n\n${c}`);
    expect(chunks).toEqual([`${a}\n\n${b}`, c]);
  });

  it("falls back to line boundaries inside a long paragraph, keeping lines whole", () => {
    const lines = Array.from({ length: 80 }, (_, i) => `- item ${i}: ${"details ".repeat(10).trim()}`);
    const chunks = splitText(lines.join("\n"));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(chunks.flatMap((c) => c.split("\n"))).toEqual(lines);
  });

  it("splits Hebrew with emoji at sentence ends, never breaking a surrogate pair", () => {
    const text = paragraph(9000, "נפגשים מחר ב-10 בבוקר במשרד 🎉 תביא את המסמכים! ");
    const chunks = splitText(text);
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(TEXT_LIMIT);
      expect(chunk).not.toMatch(LONE_SURROGATE);
    }
    // Every piece but the last (the text's own end) ends a sentence.
    for (const chunk of chunks.slice(0, -1)) expect(chunk).toMatch(/!$/);
    expect(chunks.join(" ")).toBe(text);
  });

  it("cuts text without any spaces between graphemes, keeping emoji families whole", () => {
    const family = "👨‍👩‍👧";
    const text = family.repeat(1000);
    const chunks = splitText(text);
    expect(chunks.join("")).toBe(text);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(TEXT_LIMIT);
      expect(chunk.length % family.length).toBe(0);
    }
    const thumbs = splitText("👍".repeat(3000));
    expect(thumbs.map((c) => c.length)).toEqual([4096, 1904]);
  });

  it("prefers a sentence end, then a space, and keeps the next line's indentation", () => {
    expect(splitText("First one. Second one. Third.", 25)).toEqual(["First one. Second one.", "Third."]);
    expect(splitText("alpha beta gamma delta", 11)).toEqual(["alpha beta", "gamma delta"]);
    expect(splitText("one\n  two", 5)).toEqual(["one", "  two"]);
    expect(splitText("a\r\n\r\nb", 2)).toEqual(["a", "b"]);
  });

  it("rejects a limit no text can meet", () => {
    expect(() => splitText("abc", 1)).toThrow(RangeError);
  });
});

describe("truncate", () => {
  it("ends a cut text with an ellipsis and never splits an emoji", () => {
    expect(truncate("short", 20)).toBe("short");
    expect(truncate("a".repeat(30), 20)).toBe(`${"a".repeat(19)}…`);
    const cut = truncate("🎉".repeat(30), 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut).not.toMatch(LONE_SURROGATE);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("buildReplyPayloads", () => {
  it("sends plain text as text messages, quoting the user's message only on the first", () => {
    const long = `${paragraph(3000)}\n\n${paragraph(3000)}`;
    const payloads = buildReplyPayloads(TO, { text: long, options: [], language: "en" }, "wamid.IN1");
    expect(payloads).toHaveLength(2);
    expect(payloads[0]).toMatchObject({ to: TO, type: "text", context: { message_id: "wamid.IN1" } });
    expect(payloads[1]?.context).toBeUndefined();
    expect(payloads.map(textBody).join("\n\n")).toBe(long);
  });

  it("leaves out the context when there is nothing to reply to", () => {
    const [payload] = buildReplyPayloads(TO, { text: "Done!", options: [], language: "en" });
    expect(payload).toEqual({ to: TO, type: "text", text: { body: "Done!" } });
  });

  it("sends nothing for an empty reply", () => {
    expect(buildReplyPayloads(TO, { text: " ", options: [], language: "en" }, "wamid.IN1")).toEqual([]);
  });

  it("asks yes/no questions with reply buttons whose ids are the option ids", () => {
    const reply = question(
      "Should I go ahead?",
      [
        { id: "yes", label: "Yes" },
        { id: "no", label: "No" },
      ],
      "yes_no",
    );
    const payloads = buildReplyPayloads(TO, reply, "wamid.IN1");
    expect(payloads).toEqual([
      {
        to: TO,
        type: "interactive",
        context: { message_id: "wamid.IN1" },
        interactive: {
          type: "button",
          body: { text: "Should I go ahead?" },
          action: {
            buttons: [
              { type: "reply", reply: { id: "yes", title: "Yes" } },
              { type: "reply", reply: { id: "no", title: "No" } },
            ],
          },
        },
      },
    ]);
  });

  it("asks in Hebrew with Hebrew buttons", () => {
    const reply = question(
      "להמשיך?",
      [
        { id: "yes", label: "כן" },
        { id: "no", label: "לא" },
      ],
      "yes_no",
      "he",
    );
    const body = interactive(buildReplyPayloads(TO, reply)[0]);
    expect(body).toMatchObject({ type: "button", body: { text: "להמשיך?" } });
    expect(body.type === "button" && body.action.buttons.map((b) => b.reply.title)).toEqual(["כן", "לא"]);
  });

  it("uses buttons for up to three short options and a list beyond that", () => {
    const three = interactive(
      buildReplyPayloads(TO, question("Which one?", options("Red", "Green", "Blue")))[0],
    );
    expect(three.type).toBe("button");
    const four = interactive(
      buildReplyPayloads(TO, question("Which one?", options("Red", "Green", "Blue", "Black")))[0],
    );
    expect(four).toEqual({
      type: "list",
      body: { text: "Which one?" },
      action: {
        button: "Choose",
        sections: [
          {
            title: "Options",
            rows: [
              { id: "opt_1", title: "Red" },
              { id: "opt_2", title: "Green" },
              { id: "opt_3", title: "Blue" },
              { id: "opt_4", title: "Black" },
            ],
          },
        ],
      },
    });
  });

  it("moves an option too long for a button into a list row, the rest of the label below it", () => {
    const label = "Team sync with Dana and Yossi on Tuesday at 10:00";
    const reply = question("Which meeting?", options("Standup", label));
    const list = interactive(buildReplyPayloads(TO, reply)[0]);
    if (list.type !== "list") throw new Error("expected a list");
    const row = list.action.sections[0]!.rows[1]!;
    expect(row.id).toBe("opt_2");
    expect(row.title.length).toBeLessThanOrEqual(24);
    expect(row.title).toBe("Team sync with Dana and…");
    expect(row.description).toBe("Yossi on Tuesday at 10:00");
  });

  it("cuts very long labels to the row limits with an ellipsis", () => {
    const long = `Quarterly planning review ${"with many stakeholders ".repeat(6)}`;
    const list = interactive(buildReplyPayloads(TO, question("Which?", options("A", long)))[0]);
    if (list.type !== "list") throw new Error("expected a list");
    const row = list.action.sections[0]!.rows[1]!;
    expect(row.title.length).toBeLessThanOrEqual(24);
    expect(row.description!.length).toBeLessThanOrEqual(72);
    expect(row.description!.endsWith("…")).toBe(true);
  });

  it("localizes the list button and section in Hebrew", () => {
    const reply = question("איזו פגישה?", options("א", "ב", "ג", "ד"), "single_choice", "he");
    const list = interactive(buildReplyPayloads(TO, reply)[0]);
    expect(list.type === "list" && list.action.button).toBe("בחירה");
    expect(list.type === "list" && list.action.sections[0]!.title).toBe("אפשרויות");
  });

  it("shows ten options as a list and eleven as numbered text", () => {
    const ten = options(...Array.from({ length: 10 }, (_, i) => `Choice ${i + 1}`));
    expect(interactive(buildReplyPayloads(TO, question("Pick one", ten))[0]).type).toBe("list");

    const eleven = options(...Array.from({ length: 11 }, (_, i) => `Choice ${i + 1}`));
    const reply = question("Pick one", eleven);
    expect(buildReplyPayloads(TO, reply, "wamid.IN1")).toEqual([
      { to: TO, type: "text", context: { message_id: "wamid.IN1" }, text: { body: reply.text } },
    ]);
  });

  it("asks multi-choice questions as numbered text, whatever the number of options", () => {
    const reply = question("Which days?", options("Sun", "Mon"), "multi_choice");
    expect(buildReplyPayloads(TO, reply).map(textBody)).toEqual([reply.text]);
  });

  it("sends free-text questions as text", () => {
    const reply = question("What time?", options("Morning"), "free_text");
    expect(buildReplyPayloads(TO, reply).map(textBody)).toEqual([reply.text]);
  });

  it("never shows two options the user cannot tell apart: duplicate titles fall back to numbered text", () => {
    const reply = question("Which Dana?", options("Dana Cohen", "dana cohen", "Dana Levi"));
    const payloads = buildReplyPayloads(TO, reply);
    expect(payloads.map((p) => p.type)).toEqual(["text"]);
    expect(textBody(payloads[0])).toBe(reply.text);

    const cutAlike = question(
      "Which meeting?",
      options("Weekly planning meeting (product)", "Weekly planning meeting (sales)"),
    );
    expect(buildReplyPayloads(TO, cutAlike).map((p) => p.type)).toEqual(["text"]);
  });

  it("sends a question too long for a button body as text first, with a short body on the buttons", () => {
    const context = paragraph(1500);
    const reply = question(
      `${context}\n\nShould I send it?`,
      [
        { id: "yes", label: "Yes" },
        { id: "no", label: "No" },
      ],
      "yes_no",
    );
    const payloads = buildReplyPayloads(TO, reply, "wamid.IN1");
    expect(payloads.map((p) => p.type)).toEqual(["text", "interactive"]);
    expect(payloads[0]).toMatchObject({ context: { message_id: "wamid.IN1" }, text: { body: context } });
    expect(payloads[1]?.context).toBeUndefined();
    expect(interactive(payloads[1]).body.text).toBe("Should I send it?");
  });

  it("keeps a long single-paragraph question's end as the body, within 1024 characters", () => {
    const q = paragraph(3000, "אני צריך עוד פרטים על הפגישה. ");
    const payloads = buildReplyPayloads(TO, question(q, options("א", "ב")));
    const body = interactive(payloads[payloads.length - 1]).body.text;
    expect(body.length).toBeLessThanOrEqual(1024);
    expect(q.endsWith(body)).toBe(true);
    expect([...payloads.slice(0, -1).map(textBody), body].join(" ")).toBe(q);
  });

  it("falls back to numbered text when option ids are too long for WhatsApp", () => {
    const reply = question("Which?", [
      { id: "x".repeat(201), label: "One" },
      { id: "y".repeat(201), label: "Two" },
      { id: "z".repeat(201), label: "Three" },
      { id: "w".repeat(201), label: "Four" },
    ]);
    expect(buildReplyPayloads(TO, reply).map((p) => p.type)).toEqual(["text"]);
  });
});

describe("what buildReplyPayloads builds, WhatsApp accepts", () => {
  let graph: FakeGraphApi;
  let client: GraphApiClient;

  beforeAll(async () => {
    graph = await FakeGraphApi.start({ accessToken: "test-token" });
    client = new GraphApiClient({
      baseUrl: () => graph.baseUrl,
      apiVersion: "v23.0",
      phoneNumberId: "1234567890",
      accessToken: "test-token",
      timeoutMs: 2_000,
      maxRetries: 0,
      logger: captureLogs().logger,
    });
  });
  beforeEach(() => graph.reset());
  afterAll(() => graph.close());

  it("sends every shape of reply without a validation error, first one quoting the user", async () => {
    const replies: ReplyContent[] = [
      { text: `${paragraph(4000)}\n\n${paragraph(4000)}\n\n${paragraph(100)}`, options: [], language: "en" },
      question(
        "להמשיך?",
        [
          { id: "yes", label: "כן" },
          { id: "no", label: "לא" },
        ],
        "yes_no",
        "he",
      ),
      question(paragraph(2000), options("Red", "Green", "Blue")),
      question("Which?", options("Red", "Team sync with Dana and Yossi on Tuesday at 10:00 🎉🎉🎉")),
      question("Pick", options(...Array.from({ length: 10 }, (_, i) => `${i} ${"🎉".repeat(12)}`))),
      question("Pick", options(...Array.from({ length: 12 }, (_, i) => `Choice ${i}`))),
      question("Days?", options("Sun", "Mon"), "multi_choice"),
    ];
    let expected = 0;
    for (const [i, reply] of replies.entries()) {
      const payloads = buildReplyPayloads(TO, reply, `wamid.IN${i}`);
      for (const payload of payloads) await client.sendMessage(payload);
      expected += payloads.length;
    }
    const sent = await graph.waitForSent(expected);
    const kinds = sent.map((m) => {
      const body = m.body as { interactive?: { type: string } };
      return body.interactive?.type ?? m.type;
    });
    expect(kinds.filter((k) => k === "button")).toHaveLength(2);
    expect(kinds.filter((k) => k === "list")).toHaveLength(2);
    expect(sent.filter((m) => m.contextId).map((m) => m.contextId)).toEqual(
      replies.map((_, i) => `wamid.IN${i}`),
    );
    expect(graph.textsTo(`+${TO}`)[1]).toBe(paragraph(4000));
  });

  it("is what the fake rejects when a title breaks WhatsApp's limits", async () => {
    const tooLong: TextPayload | InteractivePayload = {
      to: TO,
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Which?" },
        action: { buttons: [{ type: "reply", reply: { id: "a", title: "x".repeat(21) } }] },
      },
    };
    await expect(client.sendMessage(tooLong)).rejects.toMatchObject({ status: 400, code: 100 });
    expect(graph.sent).toEqual([]);
  });
});

// WHATSAPP_SEND_CONCURRENCY: the sender admits at most this many sends at once (issue #20).
describe("createLimiter", () => {
  it("runs at most `limit` tasks at once, in the order handed in, and a newcomer never slips past a waiting task", async () => {
    const run = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 0) void run(task(9)); // handed in while 2..4 wait: it goes after them
      return n;
    };
    const results = await Promise.all([0, 1, 2, 3, 4].map((n) => run(task(n))));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 9]);
  });

  it("frees the slot of a task that fails", async () => {
    const run = createLimiter(1);
    await expect(run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(run(() => Promise.resolve("next"))).resolves.toBe("next");
  });
});
