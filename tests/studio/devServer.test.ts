// Memo's graph under the LangGraph dev server (`npx @langchain/langgraph-cli dev`, LangGraph
// Studio's backend), through @langchain/langgraph-sdk, with no model: a fast-path turn, a question
// and its answer, the state after each node; and a user's messages replayed into it (`npm run
// replay -- --to-dev-server`). One server start for the file: it costs most of the file's time.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ThreadState } from "@langchain/langgraph-sdk";
import { replayIntoDevServer } from "../../src/app/replayToDevServer.js";
import { devServerInstalled, startDevServer, type DevServer } from "../support/devServer.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { FakeLangSmith } from "../support/fakeLangSmith.js";
import { createHarness, PHONE as USER, type Harness } from "../support/memoHarness.js";

const PHONE = "+972 50-765 4321";
const STORED = "972507654321";

let server: DevServer | undefined;
/** Where WhatsApp sends would go, were the dev server's graph to send anything. */
let graphApi: FakeGraphApi | undefined;
/** Where the dev server would send its own (unredacted) traces: LANGSMITH_TRACING=true is set. */
let langsmith: FakeLangSmith | undefined;
/** A user's stored conversation, as Memo kept it: what the replay reads. */
let h: Harness | undefined;

/** Talks with Memo in-process (no model) so the user has messages to replay. */
async function storedConversation(): Promise<Harness> {
  const harness = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
  await harness.say("hi");
  await harness.say("remind me tomorrow at 9 to call mom");
  expect((await harness.say("remind me tomorrow at 5 to call the bank")).status).toBe("waiting");
  await harness.say("17:00");
  return harness;
}

beforeAll(async () => {
  // The conversation is stored while the server starts: the start is most of the file's time.
  if (!devServerInstalled) return;
  [graphApi, langsmith] = await Promise.all([
    FakeGraphApi.start({ accessToken: "studio-token" }),
    FakeLangSmith.start(),
  ]);
  // WhatsApp and Google configured as in production: the dev server's graph must still reach neither.
  const outside = {
    WHATSAPP_ACCESS_TOKEN: "studio-token",
    WHATSAPP_PHONE_NUMBER_ID: "1234567890",
    WHATSAPP_GRAPH_URL: graphApi.baseUrl,
    GOOGLE_CLIENT_ID: "studio-client",
    GOOGLE_CLIENT_SECRET: "studio-secret",
    GOOGLE_AUTH_URL: `${graphApi.baseUrl}/google/auth`,
    GOOGLE_TOKEN_URL: `${graphApi.baseUrl}/google/token`,
    GOOGLE_API_ROOT_URL: `${graphApi.baseUrl}/google/api`,
    // LangSmith tracing on in the shell, as a developer's may be: without STUDIO_TRACING nothing goes.
    LANGSMITH_TRACING: "true",
    LANGSMITH_API_KEY: "studio-langsmith-key",
    LANGSMITH_ENDPOINT: langsmith.url,
  };
  [server, h] = await Promise.all([startDevServer(outside), storedConversation()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.stop(), h?.close()]);
  await Promise.all([graphApi?.close(), langsmith?.close()]);
});

/** The nodes that ran, oldest first: each checkpoint names the nodes that run after it. */
function nodesOf(history: ThreadState[]): string[] {
  return history
    .slice()
    .reverse()
    .flatMap((state) => state.next);
}

/** The state as the checkpoint before `node` holds it: what the nodes before it wrote. */
function before(history: ThreadState[], node: string): Record<string, unknown> {
  const state = history.find((s) => s.next.includes(node));
  if (!state) throw new Error(`no checkpoint before ${node}`);
  return state.values as Record<string, unknown>;
}

interface Question {
  description?: string;
  options?: { id: string; label: string }[];
}

// The first turn also builds the graph and opens its database: seconds more on a busy CI machine.
describe.skipIf(!devServerInstalled)("Memo in the LangGraph dev server", { timeout: 40_000 }, () => {
  it("runs a fast-path turn from the form's input and keeps the state after every node", async () => {
    const { client } = server!;
    const thread = await client.threads.create();
    const values = (await client.runs.wait(thread.thread_id, "memo", {
      input: { phone: PHONE, message: "remind me tomorrow at 9 to call mom", timeZone: "Asia/Jerusalem" },
    })) as { finalResponse?: string };
    expect(values.finalResponse).toBe("⏰ I'll remind you tomorrow at 09:00: *call mom*");

    const history = await client.threads.getHistory(thread.thread_id, { limit: 50 });
    expect(nodesOf(history)).toEqual([
      "__start__",
      "turn_input",
      "context_assembly",
      "reply_context",
      "planner",
      "capability_check",
      "hitl_gate",
      "resolver_router",
      "entity_resolution",
      "executor",
      "resolver_router",
      "join",
      "response_formatter",
      "response_writer",
      "memory_update",
    ]);
    // Each checkpoint holds what the nodes before it wrote: a developer forks from any of them.
    expect(before(history, "context_assembly")).toMatchObject({
      threadId: STORED,
      input: { message: "remind me tomorrow at 9 to call mom", userPhone: STORED },
    });
    expect(before(history, "reply_context")).toMatchObject({ user: { timezone: "Asia/Jerusalem" } });
    expect(before(history, "capability_check")).toMatchObject({
      plannerOutput: { plan: [{ capability: "database" }] },
    });
    expect(before(history, "response_writer")).not.toHaveProperty("finalResponse");
    expect(before(history, "memory_update")).toMatchObject({ finalResponse: values.finalResponse });
    // Dry run: the reminder is in the dev server's own database, never in the service's.
    expect(existsSync(path.join(server!.dataDir, "studio", "pglite"))).toBe(true);
    expect(existsSync(path.join(server!.dataDir, "pglite"))).toBe(false);
  });

  it("forks from the checkpoint before the planner with Studio's state, edited, and acts on the edit", async () => {
    const { client } = server!;
    const thread = await client.threads.create();
    const first = (await client.runs.wait(thread.thread_id, "memo", {
      input: { phone: PHONE, message: "remind me tomorrow at 8 to water the plants" },
    })) as { finalResponse?: string };
    expect(first.finalResponse).toBe("⏰ I'll remind you tomorrow at 08:00: *water the plants*");

    // Studio's fork: the checkpoint's values as the API shows them (maps as records), one field edited.
    const history = await client.threads.getHistory(thread.thread_id, { limit: 50 });
    const checkpoint = history.find((state) => state.next.includes("planner"))!;
    const values = checkpoint.values as { input: Record<string, unknown> };
    const edited = "remind me tomorrow at 8 to feed the cat";
    const fork = await client.threads.updateState(thread.thread_id, {
      values: { ...values, input: { ...values.input, message: edited, enhancedMessage: edited } },
      checkpointId: checkpoint.checkpoint.checkpoint_id!,
    });
    const forked = (await client.runs.wait(thread.thread_id, "memo", {
      input: null,
      checkpointId: fork.configurable?.checkpoint_id as string,
    })) as { finalResponse?: string };
    expect(forked.finalResponse).toBe("⏰ I'll remind you tomorrow at 08:00: *feed the cat*");
  });

  it("pauses on a question Studio shows as Memo asks it, never expiring, and resumes with a plain answer", async () => {
    const { client } = server!;
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "memo", {
      input: { phone: PHONE, message: "remind me tomorrow at 5 to call the bank" },
    });
    const paused = await client.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["hitl_gate"]);
    const question = paused.tasks.flatMap((task) => task.interrupts)[0]?.value as Question;
    expect(question.description).toBe(
      '"tomorrow at 5": in the morning or in the afternoon?\n1. 05:00 morning\n2. 17:00 afternoon',
    );
    expect(question.options).toEqual([
      { id: "opt1", label: "05:00 morning" },
      { id: "opt2", label: "17:00 afternoon" },
    ]);

    // Studio's resume box sends JSON: a shape no user could send is an invalid answer, asked again.
    const again = (await client.runs.wait(thread.thread_id, "memo", {
      command: { resume: { choice: 2 } },
    })) as { __interrupt__?: { value: Question }[] };
    expect(again.__interrupt__?.[0]?.value.description).toMatch(
      /^Please pick one of the options by its number/,
    );

    // The question forked hours after it was asked (its expiry long past) is still asked, not expired.
    const { values } = await client.threads.getState(thread.thread_id);
    const pending = (values as { pendingHITL: Record<string, unknown> }).pendingHITL;
    await client.threads.updateState(thread.thread_id, {
      values: { pendingHITL: { ...pending, expiresAt: Date.now() - 3_600_000 } },
      asNode: "capability_check",
    });
    const forked = (await client.runs.wait(thread.thread_id, "memo", { input: null })) as {
      __interrupt__?: { value: Question }[];
      finalResponse?: string;
    };
    expect(forked.__interrupt__?.[0]?.value.description).toContain("2. 17:00 afternoon");
    expect(forked.finalResponse).toBeUndefined();

    // A number is the words a user would type ("2"), as a string or { text, optionId } is.
    const resumed = (await client.runs.wait(thread.thread_id, "memo", { command: { resume: 2 } })) as {
      finalResponse?: string;
    };
    expect(resumed.finalResponse).toBe("⏰ I'll remind you tomorrow at 17:00: *call the bank*");
    // The answer went back into hitl_gate, and the reminder was made after it.
    const ran = nodesOf(await client.threads.getHistory(thread.thread_id, { limit: 50 }));
    const asked = ran.lastIndexOf("hitl_gate");
    expect(ran.slice(asked)).toContain("executor");
    expect(ran.slice(-4)).toEqual(["join", "response_formatter", "response_writer", "memory_update"]);
  });

  it("is dry for the outside world: no Google connection, nothing sent, even with both configured", async () => {
    const { client } = server!;
    const thread = await client.threads.create();
    const values = (await client.runs.wait(thread.thread_id, "memo", {
      input: { phone: PHONE, message: "connect Google", replyTo: "wamid.earlier" },
    })) as { finalResponse?: string; input?: { replyToMessageId?: string } };
    expect(values.finalResponse).toMatch(/^Google isn't set up on this Memo server/);
    expect(values.input?.replyToMessageId).toBe("wamid.earlier");
    expect(graphApi!.requests).toEqual([]);
    // Nor to LangSmith: the dev server's own tracing, unredacted, is off unless STUDIO_TRACING=true.
    // (The CLI may look the project up, a GET; no run, no content, is ever posted.)
    expect(langsmith!.requests.filter((request) => request.method !== "GET")).toEqual([]);
    expect(langsmith!.all()).toEqual([]);
    // The next turn on the thread is its own: it does not reply to what the last one did.
    const next = (await client.runs.wait(thread.thread_id, "memo", {
      input: { phone: PHONE, message: "thanks" },
    })) as { finalResponse?: string; input?: { replyToMessageId?: string } };
    expect(next).toMatchObject({ finalResponse: "You're welcome! 😊" });
    expect(next.input).not.toHaveProperty("replyToMessageId");
  });

  describe("npm run replay -- --to-dev-server", () => {
    it("replays a user's last messages as one thread, the answer resuming the question, redacted", async () => {
      const { client } = server!;
      const replay = await replayIntoDevServer({
        source: h!.db.pool,
        phone: USER,
        url: server!.url,
        includeContent: true,
        last: 3,
      });
      expect(replay.turns.map(({ text, resumed, status }) => ({ text, resumed, status }))).toEqual([
        { text: "remind me tomorrow at 9 to call mom", resumed: false, status: "completed" },
        { text: "remind me tomorrow at 5 to call the bank", resumed: false, status: "waiting" },
        { text: "17:00", resumed: true, status: "completed" },
      ]);
      expect(replay.turns[1]!.reply).toContain("1. 05:00 morning");
      expect(replay.turns[2]!.reply).toBe("⏰ I'll remind you tomorrow at 17:00: *call the bank*");
      // One thread, every turn's checkpoints in it; the user is a stand-in, never their number.
      const history = await client.threads.getHistory(replay.threadId, { limit: 100 });
      expect(nodesOf(history).filter((node) => node === "turn_input")).toHaveLength(2);
      expect(JSON.stringify(history)).not.toContain(USER);
      expect(replay.phone).toMatch(/^999\d{9}$/);

      // Without LANGSMITH_INCLUDE_CONTENT the words stay home, as in traces.
      const redacted = await replayIntoDevServer({
        source: h!.db.pool,
        phone: USER,
        url: server!.url,
        last: 1,
      });
      expect(redacted.turns.map((t) => t.text)).toEqual(["[redacted]"]);
      // Each replay is a fresh stand-in user, with none of the last replay's history.
      expect(redacted.phone).toMatch(/^999\d{9}$/);
      expect(redacted.phone).not.toBe(replay.phone);
      const state = await client.threads.getState(redacted.threadId);
      expect(state.values).toMatchObject({ input: { message: "[redacted]" } });
    });
  });
});
