import { afterEach, describe, expect, it } from "vitest";
import { callKind, type CallKind } from "../../bench/llmRequests.js";
import { buildDocumentOffersMessages } from "../../src/prompts/documentOffersPrompt.js";
import { digestPolishMessages } from "../../src/prompts/morningBriefPrompt.js";
import { createHarness, isPlanner, plan, step, type Harness } from "../support/memoHarness.js";
import type { RecordedRequest } from "../support/scriptedOpenAI.js";

/**
 * Providers cache a request's leading bytes: the schema or tools, then the system message. Those
 * must be the same for everyone, whatever their zone, language or the time; what changes per user
 * and turn goes in the later user message.
 */
const USERS = [
  {
    phone: "972501110001",
    timeZone: "Asia/Jerusalem",
    language: "he",
    text: "תזכיר לי להתקשר לדנה מחר ב-9, ואני אוהבת טיולים: איזה מסלול מומלץ?",
  },
  {
    phone: "12125550123",
    timeZone: "America/New_York",
    language: "en",
    text: "remind me to call Dana tomorrow at 9, and I love hiking: which trail would you suggest?",
  },
] as const;

/** What a request puts ahead of its per-turn messages: the declared schema and the system message. */
const cachedPart = (req: RecordedRequest) =>
  JSON.stringify({
    schema: req.body.response_format ?? req.body.tools ?? null,
    system: req.body.messages.filter((m) => m.role === "system" || m.role === "developer"),
  });

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("prompt prefixes", () => {
  it("every node sends the same schema and system prompt to users of different zones and languages, at different times", async () => {
    h = await createHarness({ memoryMode: "llm" });
    const server = h.server!;
    // One turn per user reaches the planner and two resolvers: a task and an answer.
    server.on(
      isPlanner,
      plan({
        steps: [
          step("s1", "database", "create_task", { changes: { text: "call Dana", when: "tomorrow at 9" } }),
          step("s2", "general", "answer_question"),
        ],
      }),
    );
    server.on((req) => callKind(req) === "resolver:tasks", {
      json: { operation: "create", text: "call Dana", dueDate: "tomorrow at 9" },
    });
    server.on((req) => callKind(req) === "resolver:general", { text: "The coastal trail is lovely." });
    server.on((req) => callKind(req) === "memory:facts", { json: { facts: [], episodes: [] } });
    server.on((req) => callKind(req) === "memory:summary", {
      json: { summary: "- Hiking.", topics: ["hiking"] },
    });
    server.on(() => true, { text: "Done." });

    const seen = new Map<CallKind, Map<string, string[]>>();
    for (const user of USERS) {
      await h.users.getOrCreate(user.phone, { timeZone: user.timeZone, language: user.language });
      const from = server.requests.length;
      expect(await h.runtime.invokeMemoGraph(user.phone, user.text)).toMatchObject({ status: "completed" });
      await h.longTerm.idle();
      for (const req of server.requests.slice(from)) {
        const byUser = seen.get(callKind(req)) ?? new Map<string, string[]>();
        byUser.set(user.phone, [...(byUser.get(user.phone) ?? []), cachedPart(req)]);
        seen.set(callKind(req), byUser);
      }
      // Another hour, minute and second of the day for the next user.
      h.clock.advance(3 * 3_600_000 + 17 * 60_000 + 11_000);
    }
    expect(server.unmatched).toEqual([]);
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining(["planner", "resolver:tasks", "resolver:general", "memory:facts"]),
    );
    for (const [kind, byUser] of seen) {
      const parts = [...byUser.values()].flat();
      expect(new Set(parts).size, kind).toBe(1);
    }
    // The planner and the resolvers, at least, were called by both users.
    for (const kind of ["planner", "resolver:tasks", "resolver:general"] as const)
      expect(seen.get(kind)!.size).toBe(2);
  });

  it("the message builders outside a turn keep the user's language and date out of the system message", () => {
    const system = (messages: { role: string; content: unknown }[]) =>
      messages.filter((m) => m.role === "system");
    expect(system(digestPolishMessages("☀️ Good morning!", "en"))).toEqual(
      system(digestPolishMessages("☀️ בוקר טוב!", "he")),
    );
    expect(digestPolishMessages("☀️ בוקר טוב!", "he")[1]!.content).toContain("Hebrew");
    const offers = (language: "he" | "en", today: string) =>
      buildDocumentOffersMessages({ language, title: "Trip", pages: ["Trip on 3 May"], today });
    expect(system(offers("he", "2026-03-05"))).toEqual(system(offers("en", "2026-11-29")));
  });
});
