// A turn whose work carries its LLM usage (the inbox worker, with the statement that ends the
// message): the budget writes nothing when the turn ends, counts the cost meanwhile, and keeps what
// the carrier reports; usage given back is written by the budget, once, however often it is told.
import { afterEach, describe, expect, it } from "vitest";
import { PgLlmUsageRepository } from "../../src/db/repositories/llmUsageRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { LLMBudget } from "../../src/services/llm/llmBudget.js";
import type { LLMCallRecord } from "../../src/services/llm/observedLlmService.js";
import type { LLMNode } from "../../src/types/llm.js";
import { withTurn, type CarriedUsage, type TurnContext } from "../../src/utils/turnContext.js";
import { backends, type TestDatabase } from "../support/db.js";
import { fakeClock } from "../support/clock.js";
import { captureLogs } from "../support/logs.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";

const PHONE = "972501112233";

const call = (node: LLMNode, costUsd: number): LLMCallRecord => ({
  node,
  usage: {
    node,
    model: "gpt-4o-mini",
    inputTokens: 100,
    outputTokens: 10,
    costUsd,
    durationMs: 5,
    fallback: false,
  },
  ok: true,
  durationMs: 5,
});

let db: TestDatabase | undefined;
let counter: QueryCounter | undefined;
afterEach(async () => {
  counter?.restore();
  counter = undefined;
  await db?.close();
  db = undefined;
});

describe.each(backends)("a turn's carried LLM usage on $name", (backend) => {
  async function setup() {
    db = await backend.create();
    await new PgUserRepository(db.pool).getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const clock = fakeClock("2026-03-05T10:00:00Z");
    const usage = new PgLlmUsageRepository(db.pool);
    const budget = new LLMBudget({ usage, logger: captureLogs().logger, dailyUsd: 1, clock: clock.now });
    const day = async () =>
      (
        await db!.pool.query<{ calls: number; cost_usd: number }>(
          "SELECT calls, cost_usd FROM llm_usage_daily WHERE user_phone = $1",
          [PHONE],
        )
      ).rows[0] ?? null;
    /** Runs a carried turn of two calls (0.001 + 0.002); returns what it left for its carrier. */
    const carriedTurn = async (): Promise<CarriedUsage> => {
      const carrier: NonNullable<TurnContext["usageCarrier"]> = {};
      await withTurn({ traceId: "t", phone: PHONE, trigger: "user", usageCarrier: carrier }, async () => {
        budget.observer(call("planner", 0.001));
        budget.observer(call("responseWriter", 0.002));
        await Promise.resolve();
      });
      expect(carrier.usage).toBeDefined();
      return carrier.usage!;
    };
    return { budget, clock, usage, day, carriedTurn };
  }

  it("writes nothing at the turn's end, counts the cost until told, and keeps the day the carrier wrote", async () => {
    const { budget, usage, day, carriedTurn } = await setup();
    counter = countQueries();
    const carried = await carriedTurn();
    expect(carried).toMatchObject({ phone: PHONE, calls: 2, inputTokens: 200, outputTokens: 20 });
    expect(carried.costUsd).toBeCloseTo(0.003, 9);
    // Not yet written: idle waits for the carrier, and the spend read counts it already.
    let idle = false;
    const waiting = budget.idle().then(() => (idle = true));
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false);
    expect(counter.statements.filter((sql) => sql.startsWith("INSERT INTO llm_usage_daily"))).toEqual([]);
    // The carrier's statement (here the repository's own) wrote it and returned the day.
    const written = await usage.add(carried.phone, carried.at, carried);
    carried.written(written);
    await waiting;
    // Counted once: the day as written, nothing left unwritten, no write of the budget's own.
    counter.restore();
    counter = countQueries();
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
    expect(counter.statements).toEqual([]);
    carried.unwritten();
    await budget.idle();
    expect(await day()).toMatchObject({ calls: 2 });
    expect((await day())!.cost_usd).toBeCloseTo(0.003, 9);
  });

  it("writes usage given back on its own, once", async () => {
    const { budget, clock, day, carriedTurn } = await setup();
    const carried = await carriedTurn();
    counter = countQueries();
    carried.unwritten();
    carried.unwritten();
    carried.written(null);
    await budget.idle();
    expect(counter.statements.filter((sql) => sql.startsWith("INSERT INTO llm_usage_daily"))).toHaveLength(1);
    expect(await day()).toMatchObject({ calls: 2 });
    expect((await day())!.cost_usd).toBeCloseTo(0.003, 9);
    // Read again later: the table's total, with nothing still counted as unwritten.
    clock.advance(60_000);
    expect(await budget.spentToday(PHONE)).toBeCloseTo(0.003, 9);
  });

  it("a turn that nothing carries writes its calls at its end, as ever", async () => {
    const { budget, day } = await setup();
    await withTurn({ traceId: "t", phone: PHONE, trigger: "user" }, async () => {
      budget.observer(call("planner", 0.001));
      await Promise.resolve();
    });
    await budget.idle();
    expect(await day()).toMatchObject({ calls: 1 });
  });
});
