import { loadConfig } from "../src/config/env.js";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { createMemoRuntime } from "../src/app/createMemoRuntime.js";
import { createLogger } from "../src/utils/logger.js";
import { fakeClock } from "../tests/support/clock.js";
import {
  ScriptedOpenAI,
  wirePlannerAnswer,
  type RecordedRequest,
  type ScriptedReply,
} from "../tests/support/scriptedOpenAI.js";
import {
  cacheablePrefixes,
  callKind,
  inputTokens,
  inTurn,
  openAiCachedTokens,
  roughTokens,
  serializedInput,
  type CallKind,
} from "./llmRequests.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";

const PHONES = { en: "972501110001", he: "972501110002" } as const;
/** Thursday 5 March 2026, 12:00 in Jerusalem; each message comes two minutes after the one before. */
const START = "2026-03-05T10:00:00Z";
const STEP_MS = 2 * 60_000;

/** Calls and tokens of one turn, split into the turn's own calls and the background memory work after it. */
interface TurnCount {
  scenario: Scenario;
  calls: number;
  input: number;
  schema: number;
  output: number;
  background: number;
  backgroundInput: number;
}

/** Background memory calls a scenario does not script: nothing to remember, a plain chunk summary. */
function backgroundDefault(kind: CallKind): ScriptedReply | undefined {
  if (kind === "memory:facts") return { json: { facts: [] } };
  if (kind === "memory:summary")
    return { json: { summary: "- The user organizes their week with Memo.", topics: ["week"] } };
  return undefined;
}

/** The answer as the server sends it: a planner answer in its wire shape (key/value pairs), not the scripted records. */
const outputChars = (reply: ScriptedReply) =>
  reply.rawContent ??
  reply.text ??
  (reply.json !== undefined ? JSON.stringify(wirePlannerAnswer(reply.json)) : "");

/** A request's estimated input tokens, its schema included. */
const inputOf = (req: RecordedRequest) => inputTokens(req).messages + inputTokens(req).schema;

const mean = (values: number[]) =>
  values.length === 0 ? 0 : round(values.reduce((a, b) => a + b, 0) / values.length);

/** Means per turn of one group of turns. */
function summarize(turns: TurnCount[]) {
  return {
    mean_calls: mean(turns.map((t) => t.calls)),
    mean_input_tokens: mean(turns.map((t) => t.input)),
    mean_output_tokens: mean(turns.map((t) => t.output)),
    turns: turns.length,
  };
}

/**
 * LLM calls and tokens per turn over the scenario corpus (bench/scenarios.ts): the real graph
 * in-process on PGlite (createMemoRuntime, FAST_PATH and MEMORY_MODE at their defaults) with the
 * real ChatOpenAI client talking to the scripted server, so the prompts are the ones a real turn
 * sends. Calls are counted from the server's requests; fast-path and template turns count 0.
 * Background memory work (fact extraction, summaries) runs after the reply and is reported apart.
 */
export function llmCalls(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
    await migrate(pool, MIGRATIONS);
    const server = await ScriptedOpenAI.start();
    const problems: string[] = [];
    let queues = new Map<CallKind, ScriptedReply[]>();
    let current: Scenario | undefined;
    const outputs = new Map<RecordedRequest, number>();
    /** The turn (scenario index) each request was part of. */
    const turnOf = new Map<RecordedRequest, number>();
    server.on(
      () => true,
      (req) => {
        const kind = callKind(req);
        const reply = queues.get(kind)?.shift() ?? backgroundDefault(kind);
        if (!reply) {
          problems.push(`"${current?.text}": a ${kind} call the corpus does not script`);
          return { status: 500 };
        }
        outputs.set(req, roughTokens(outputChars(reply)));
        return reply;
      },
    );
    const clock = fakeClock(START);
    const memo = createMemoRuntime({
      config: loadConfig({ OPENAI_API_KEY: "bench", OPENAI_BASE_URL: server.baseUrl, LLM_MAX_RETRIES: "0" }),
      pool,
      checkpointer: await createCheckpointer("postgres", pool),
      logger: createLogger("silent"),
      clock: clock.now,
      embedder: null,
    });
    try {
      for (const [language, phone] of Object.entries(PHONES)) {
        await memo.users.getOrCreate(phone, {
          timeZone: "Asia/Jerusalem",
          language: language as "en" | "he",
        });
      }
      const turns: TurnCount[] = [];
      for (const scenario of SCENARIOS) {
        current = scenario;
        queues = new Map(Object.entries(scenario.llm ?? {}).map(([k, v]) => [k as CallKind, [...v]]));
        const from = server.requests.length;
        const reply = await memo.runtime.invokeMemoGraph(PHONES[scenario.user], scenario.text);
        await memo.longTerm.idle();
        if (reply.status === "failed") problems.push(`"${scenario.text}": the turn failed (${reply.text})`);
        for (const [kind, left] of queues) {
          if (left.length > 0)
            problems.push(`"${scenario.text}": ${left.length} scripted ${kind} answer(s) unused`);
        }
        const requests = server.requests.slice(from);
        for (const r of requests) turnOf.set(r, turns.length);
        const own = requests.filter((r) => inTurn(callKind(r)));
        const background = requests.filter((r) => !inTurn(callKind(r)));
        turns.push({
          scenario,
          calls: own.length,
          input: own.reduce((sum, r) => sum + inputOf(r), 0),
          schema: own.reduce((sum, r) => sum + inputTokens(r).schema, 0),
          output: own.reduce((sum, r) => sum + (outputs.get(r) ?? 0), 0),
          background: background.length,
          backgroundInput: background.reduce((sum, r) => sum + inputOf(r), 0),
        });
        // BENCH_VERBOSE=1: each message, its calls and Memo's reply (for keeping the corpus honest).
        if (process.env.BENCH_VERBOSE === "1") {
          const line = `[${scenario.user}] ${scenario.text}\n  ${reply.status}, ${own.map(callKind).join(" + ") || "no call"}: ${reply.text.replace(/\n/g, " ⏎ ").slice(0, 160)}`;
          process.stderr.write(`${line}\n`);
        }
        clock.advance(STEP_MS);
      }
      if (problems.length > 0)
        throw new Error(`llm_calls: the corpus is out of date:\n${problems.join("\n")}`);

      const byArea: Record<string, unknown> = {};
      for (const area of [...new Set(turns.map((t) => t.scenario.area))]) {
        byArea[area] = summarize(turns.filter((t) => t.scenario.area === area));
      }
      // The cacheable prefix of each call, against the same node's calls of other turns and users.
      const prefixCalls = server.requests.map((r) => ({
        kind: callKind(r),
        turn: turnOf.get(r) ?? -1,
        input: serializedInput(r),
      }));
      const prefixes = cacheablePrefixes(prefixCalls);
      const shareOf = (i: number) => (prefixes[i] ?? 0) / prefixCalls[i]!.input.length;
      // What OpenAI would bill as cached: the shared prefix's whole tokens, past its minimum, in its steps.
      const cachedOf = (i: number) => openAiCachedTokens(Math.floor((prefixes[i] ?? 0) / 4));
      const cachedShareOf = (i: number) => Math.min(1, cachedOf(i) / inputOf(server.requests[i]!));
      const measured = (indices: number[]) => indices.filter((i) => prefixes[i] !== null);
      const byKind: Record<string, Record<string, number>> = {};
      for (const kind of [...new Set(server.requests.map(callKind))]) {
        const indices = server.requests.flatMap((r, i) => (callKind(r) === kind ? [i] : []));
        const warm = measured(indices);
        byKind[kind] = {
          calls: indices.length,
          mean_input_tokens: mean(indices.map((i) => inputOf(server.requests[i]!))),
          mean_cacheable_prefix_tokens: mean(warm.map((i) => Math.ceil(prefixes[i]! / 4))),
          cacheable_prefix_share: mean(warm.map(shareOf)),
          mean_openai_cached_tokens: mean(warm.map(cachedOf)),
          openai_cached_share: mean(warm.map(cachedShareOf)),
        };
      }
      const allWarm = measured(server.requests.map((_, i) => i));
      const withCalls = turns.filter((t) => t.calls > 0);
      return {
        bench: "llm_calls",
        ...summarize(turns),
        share_zero_llm: round(turns.filter((t) => t.calls === 0).length / turns.length),
        mean_calls_llm_turns: mean(withCalls.map((t) => t.calls)),
        mean_input_tokens_llm_turns: mean(withCalls.map((t) => t.input)),
        mean_schema_tokens: mean(turns.map((t) => t.schema)),
        mean_background_calls: mean(turns.map((t) => t.background)),
        mean_background_input_tokens: mean(turns.map((t) => t.backgroundInput)),
        cacheable_prefix_share: mean(allWarm.map(shareOf)),
        openai_cached_share: mean(allWarm.map(cachedShareOf)),
        languages: {
          en: turns.filter((t) => t.scenario.user === "en").length,
          he: turns.filter((t) => t.scenario.user === "he").length,
        },
        tokens:
          "estimated: ceil(chars/4) of the messages sent plus the structured-output schema declared (input), of the scripted answer (output)",
        cacheable_prefix:
          "per call, the leading characters of its input (schema, then messages) shared with an earlier call of the same node in another turn or user, as a share of its input; calls with no such earlier call left out",
        openai_cached:
          "of that prefix, what OpenAI would bill as cached: 0 below 1,024 tokens, else rounded down to 128-token steps, as a share of the call's input",
        by_area: byArea,
        by_kind: byKind,
      };
    } finally {
      await memo.longTerm.idle();
      await server.close();
    }
  });
}
