// A WhatsApp turn's LLM usage is added to the user's day by the statement that ends its inbox
// message (no write of its own): every call counted once, with its tokens and cost, also when that
// statement fails and the usage is written on its own; and the daily budget still stops the user.
import { afterEach, describe, expect, it } from "vitest";
import { modelConfigOf } from "../../src/config/llmConfig.js";
import { costUsd } from "../../src/services/llm/cost.js";
import { backends } from "../support/db.js";
import { isPlanner } from "../support/memoHarness.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";
import type { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  echoReply,
  scriptedHarnesses,
  GENERAL_PLAN,
  textMessage,
  type WhatsAppHarness,
  type WhatsAppHarnessOptions,
} from "../support/whatsappHarness.js";

const ALICE = "972501110001";
/** No poll during a test: every look for work is one the worker decided on. */
const NO_POLL = 3_600_000;
/** What each scripted call reports using. */
const TOKENS = { prompt_tokens: 1200, completion_tokens: 80 };
/** The planner and the general writer both run on gpt-4o-mini by default. */
const CALL_COST = costUsd(modelConfigOf("gpt-4o-mini").config, 1200, 80);

/** The planner's one general step, then the writer's echo; each call with TOKENS. */
function scriptTurns(server: ScriptedOpenAI): void {
  server.on(isPlanner, { json: GENERAL_PLAN, usage: TOKENS });
  server.on(
    (req) => !isPlanner(req),
    (req) => ({ ...echoReply(req), usage: TOKENS }),
  );
}

describe.each(backends)("a WhatsApp turn's LLM usage on $name", (backend) => {
  const scripted = scriptedHarnesses();
  let counter: QueryCounter | undefined;
  afterEach(() => {
    counter?.restore();
    counter = undefined;
  });

  async function harness(options: WhatsAppHarnessOptions = {}) {
    const h = await scripted.harness({ db: await backend.create(), pollIntervalMs: NO_POLL, ...options });
    await h.knownUser(ALICE);
    await h.idle();
    return h;
  }

  async function day(h: WhatsAppHarness) {
    const { rows } = await h.db.pool.query<{
      calls: number;
      input_tokens: string;
      output_tokens: string;
      cost_usd: number;
    }>("SELECT calls, input_tokens, output_tokens, cost_usd FROM llm_usage_daily WHERE user_phone = $1", [
      ALICE,
    ]);
    return rows;
  }

  it("is written by the statement that ends the message, with every call, token and cent", async () => {
    scriptTurns(scripted.server());
    const h = await harness();
    counter = countQueries();
    await h.deliver(textMessage(ALICE, "what's the capital of France?", h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    await h.memo.budget.idle();
    const usageStatements = counter.statements.filter((sql) => sql.includes("llm_usage_daily"));
    counter.restore();
    counter = undefined;
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: what's the capital of France?"]);
    expect(scripted.server().requests).toHaveLength(2);
    // Read with the user at the turn's start, written with the message's end: nothing else.
    expect(usageStatements).toHaveLength(2);
    expect(usageStatements[0]).toMatch(/^UPDATE users SET last_inbound_at/);
    expect(usageStatements[1]).toMatch(/^WITH lease AS/);
    const rows = await day(h);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.calls).toBe(2);
    expect(Number(rows[0]!.input_tokens)).toBe(2400);
    expect(Number(rows[0]!.output_tokens)).toBe(160);
    expect(rows[0]!.cost_usd).toBeCloseTo(2 * CALL_COST, 9);
    // The budget keeps the day's total the statement returned: no reading of its own.
    const reads = countQueries();
    expect(await h.memo.budget.spentToday(ALICE)).toBeCloseTo(2 * CALL_COST, 9);
    reads.restore();
    expect(reads.statements).toEqual([]);
  });

  it("is written once on its own when the statement that ends the message fails", async () => {
    scriptTurns(scripted.server());
    const h = await harness();
    const inbox = h.whatsapp.inbox;
    const advance = inbox.advance.bind(inbox);
    const carried: boolean[] = [];
    inbox.advance = (phone, token, step) => {
      carried.push(step.usage !== undefined);
      // The first statement to end the message fails (a lost connection), usage and all.
      if (step.finish && carried.length === 1) return Promise.reject(new Error("connection lost"));
      return advance(phone, token, step);
    };
    const message = textMessage(ALICE, "tell me something", h.clock.now());
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    await h.memo.budget.idle();
    expect(await inbox.get(message.id)).toMatchObject({ status: "done" });
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: tell me something"]);
    // Only the failed statement carried it; the record and the retried end went without.
    expect(carried).toEqual([true, false, false]);
    expect(scripted.server().requests).toHaveLength(2);
    const rows = await day(h);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.calls).toBe(2);
    expect(Number(rows[0]!.input_tokens)).toBe(2400);
    expect(rows[0]!.cost_usd).toBeCloseTo(2 * CALL_COST, 9);
  });

  it("is written by the statement that ends the message even when the lease was lost meanwhile", async () => {
    scriptTurns(scripted.server());
    const h = await harness();
    const inbox = h.whatsapp.inbox;
    const advance = inbox.advance.bind(inbox);
    const finished: boolean[] = [];
    inbox.advance = async (phone, token, step) => {
      // Another worker's lease now: the message is not ended here, but the calls were made.
      if (step.finish) await h.db.pool.query("DELETE FROM inbox_phone_leases WHERE phone = $1", [phone]);
      const result = await advance(phone, token, step);
      if (step.finish) finished.push(result.finished);
      return result;
    };
    const message = textMessage(ALICE, "tell me something", h.clock.now());
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    await h.memo.budget.idle();
    expect(finished).toEqual([false]);
    expect(await inbox.get(message.id)).toMatchObject({ status: "pending" });
    const rows = await day(h);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.calls).toBe(2);
  });

  it("still stops the user at the daily budget on their next turn", async () => {
    scriptTurns(scripted.server());
    // One call costs more than this: the first turn crosses it (and, admitted, finishes).
    const h = await harness({ env: { LLM_DAILY_BUDGET_USD: String(CALL_COST / 2) } });
    await h.deliver(textMessage(ALICE, "what's the capital of France?", h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(scripted.server().requests.filter(isPlanner)).toHaveLength(1);
    expect((await day(h))[0]?.calls).toBe(2);
    h.clock.advance(60_000);
    await h.deliver(textMessage(ALICE, "and of Italy?", h.clock.now()));
    await h.graphApi.waitForSent(2);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)[1]).toContain("today's allowance");
    expect(scripted.server().requests).toHaveLength(2);
    expect((await day(h))[0]?.calls).toBe(2);
  });
});
