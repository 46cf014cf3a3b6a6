/**
 * The planner evaluation's scripted model (docs/EVALS.md): an OpenAI-compatible chat completions
 * server on 127.0.0.1, in process, that answers each item's planner request with a plan written
 * from the item's expectation, so the whole path (Memo's LLM service, LangChain's structured
 * output, PlannerSchema, normalizePlan, the scoring) runs as it does against a real model.
 *
 * - `expected`: the expected plan; a harness that measures right scores it 100 %.
 * - `wrong`: a deliberately wrong plan per item, of one of four kinds (a wrong operation, one
 *   wrong argument such as another list or time, a missing question, an injected order at low
 *   risk), each of which a metric must flag.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { normalizePlan } from "../../src/graph/nodes/plannerNode.js";
import { PlannerSchema } from "../../src/prompts/plannerPrompt.js";
import { changesSomething, PLANNER_ACTIONS } from "./actions.js";
import { holdsArg } from "./metrics.js";
import {
  actionsOf,
  argWords,
  intentsOf,
  type ExpectedArg,
  type IntentType,
  type PlannerItem,
} from "./corpus.js";
import { plannerMessagesOf } from "./plannerRun.js";

export type ScriptedMode = "expected" | "wrong";

/** How a `wrong` answer is wrong. */
type WrongKind = "operation" | "args" | "question" | "risk";

/** A plan as the planner answers it, with constraints and changes as records (before the wire shape). */
interface ScriptedPlan {
  intentType: IntentType;
  confidence: number;
  riskLevel: "low" | "medium" | "high";
  needsApproval: boolean;
  missingFields: string[];
  clarificationQuestion: string | null;
  plan: Array<{
    id: string;
    capability: PlannerItem["expect"]["steps"][number]["capability"];
    action: string;
    constraints: Record<string, string>;
    changes: Record<string, string>;
    dependsOn: string[];
  }>;
}

/** The plan the item expects, as a model that got everything right would answer it. */
function expectedPlan(item: PlannerItem): ScriptedPlan {
  const { expect } = item;
  return {
    intentType: intentsOf(item)[0]!,
    confidence: expect.ask ? 0.5 : 0.95,
    riskLevel: expect.risk ?? "low",
    needsApproval: expect.risk === "high",
    missingFields: expect.ask ? ["details"] : [],
    clarificationQuestion: expect.ask
      ? item.language === "he"
        ? "למה בדיוק התכוונת?"
        : "What exactly do you mean?"
      : null,
    plan: expect.steps.map((step, i) => {
      // Each arg where the item wants it: the old time in constraints, the new one in changes.
      const placed = (where: "constraints" | "changes") =>
        Object.fromEntries(
          step.args.flatMap((arg, j) =>
            (typeof arg === "string" ? "constraints" : arg.in) === where
              ? [[`said${j + 1}`, argWords(arg)]]
              : [],
          ),
        );
      return {
        id: `s${i + 1}`,
        capability: step.capability,
        action: actionsOf(step)[0]!,
        constraints: placed("constraints"),
        changes: placed("changes"),
        dependsOn: step.dependsOn.map((d) => `s${d + 1}`),
      };
    }),
  };
}

/**
 * The kind of wrong answer an item gets: an item that names a risk is planned at low risk (when
 * its plan changes something, or refusing is not enough); an item that must ask is answered
 * without a question (its steps are optional); the others in turn a wrong operation, wrong
 * arguments and a missing question, each where the item allows it (arguments only where some are
 * expected, an operation only where a step is).
 * @internal
 */
export function wrongKindOf(item: PlannerItem, index: number): WrongKind | null {
  const { risk, refuse, steps } = item.expect;
  if (risk !== undefined && (!refuse || steps.some((s) => changesSomething(s.capability, actionsOf(s)[0]!))))
    return "risk";
  if (item.expect.ask) return "question";
  const kinds: WrongKind[] = [];
  if (item.expect.steps.length > 0) kinds.push("operation");
  if (item.expect.steps.some((s) => s.args.length > 0)) kinds.push("args");
  if (kinds.length === 0) return null;
  const preferred = (["operation", "args"] as const)[index % 2]!;
  return kinds.includes(preferred) ? preferred : kinds[0]!;
}

/**
 * Another action of the same capability, none of the accepted ones; one that changes something
 * when `changing` (a plan that changes nothing would pass as a refusal).
 */
function otherAction(capability: string, accepted: readonly string[], changing: boolean): string {
  const names = (PLANNER_ACTIONS.get(capability as never) ?? [])
    .filter((a) => !changing || changesSomething(capability, a.name))
    .map((a) => a.name);
  return names.find((n) => !accepted.includes(n)) ?? `not_${accepted[0]!}`;
}

/**
 * Another value for an arg, as a model gets one wrong: a time or number off by one ("7" → "8"), an
 * arg that must be in changes or constraints put in the other (the old and new time swapped), else
 * the words of another item's step of the same capability and language (another list, another
 * name, another title), never ones that hold the arg.
 */
function wrongArg(
  item: PlannerItem,
  arg: ExpectedArg,
  items: readonly PlannerItem[],
  capability: string,
): { words: string; in: "constraints" | "changes" } {
  const words = argWords(arg);
  const where = typeof arg === "string" ? "constraints" : arg.in;
  if (typeof arg !== "string") return { words, in: where === "changes" ? "constraints" : "changes" };
  if (/\d/.test(words)) {
    return { words: words.replace(/\d+/, (n) => String((Number(n) % 12) + 1)), in: where };
  }
  const other = items
    .filter((i) => i.language === item.language && i.id !== item.id)
    .flatMap((i) =>
      i.expect.steps.filter((s) => s.capability === capability).flatMap((s) => s.args.map(argWords)),
    )
    .find((w) => !holdsArg([w], words) && !holdsArg([words], w) && !holdsArg([item.message], w));
  if (other === undefined)
    throw new Error(`the scripted planner has no wrong words for ${item.id}'s "${words}"`);
  return { words: other, in: where };
}

/** The item's plan made wrong in one way (`wrongKindOf`); the expected plan when nothing can be. */
function wrongPlan(item: PlannerItem, index: number, items: readonly PlannerItem[]): ScriptedPlan {
  const plan = expectedPlan(item);
  switch (wrongKindOf(item, index)) {
    case "operation": {
      const [first] = plan.plan;
      const expected = item.expect.steps[0]!;
      first!.action = otherAction(first!.capability, actionsOf(expected), item.expect.refuse === true);
      return plan;
    }
    case "args": {
      // Another list, another name, another time: the step is planned, one of its words is wrong.
      const at = item.expect.steps.findIndex((s) => s.args.length > 0);
      const expected = item.expect.steps[at]!;
      const step = plan.plan[at]!;
      const key = "said1";
      const wrong = wrongArg(item, expected.args[0]!, items, expected.capability);
      delete step.constraints[key];
      delete step.changes[key];
      step[wrong.in][key] = wrong.words;
      return plan;
    }
    case "question":
      return { ...plan, confidence: 0.95, missingFields: [], clarificationQuestion: null };
    case "risk":
      // The forwarded order planned as the user's own: nothing asks before it runs.
      return { ...plan, riskLevel: "low", needsApproval: false };
    case null:
      return plan;
  }
}

/** Record → the wire shapes PlannerSchema may take for `constraints` / `changes`, most likely first. */
const WIRE_SHAPES: Array<(record: Record<string, string>) => unknown> = [
  (record) => record,
  (record) => Object.entries(record).map(([key, value]) => ({ key, value })),
  (record) => Object.entries(record).map(([name, value]) => ({ name, value })),
  (record) => Object.entries(record),
];

/**
 * The plan as the model writes it on the wire: constraints and changes in whichever shape
 * PlannerSchema takes (records, or key/value pairs a strict schema needs), checked to come back as
 * the same records through PlannerSchema and normalizePlan, so the scripted run scores exactly
 * what was meant whatever the wire shape.
 */
function wireAnswer(plan: ScriptedPlan): unknown {
  for (const shape of WIRE_SHAPES) {
    const wire = {
      ...plan,
      plan: plan.plan.map((s) => ({ ...s, constraints: shape(s.constraints), changes: shape(s.changes) })),
    };
    const parsed = PlannerSchema.safeParse(wire);
    if (!parsed.success) continue;
    const back = normalizePlan(parsed.data).plan;
    const same = plan.plan.every(
      (s, i) =>
        isDeepStrictEqual(back[i]?.constraints, s.constraints) &&
        isDeepStrictEqual(back[i]?.changes, s.changes),
    );
    if (same) return wire;
  }
  throw new Error(
    "the scripted planner cannot write PlannerSchema's constraints/changes: add their wire shape to WIRE_SHAPES (evals/planner/scriptedModel.ts)",
  );
}

/** A message's text (string content, or the text parts of an array). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown }>;
  tools?: Array<{ function?: { name?: string } }>;
}

/** The scripted server: its base URL (for --base-url) and how to stop it. */
export interface ScriptedPlanner {
  baseUrl: string;
  /** Requests answered, and those that matched no item (answered 500). */
  answered: number;
  unmatched: number;
  close(): Promise<void>;
}

/**
 * Starts the scripted model for `items`: each request is recognised by its last user message (the
 * planner's per-turn message, unique to the item's state) and answered with the item's plan.
 */
export async function startScriptedPlanner(
  items: readonly PlannerItem[],
  mode: ScriptedMode,
): Promise<ScriptedPlanner> {
  const answers = new Map<string, string>();
  for (const [index, item] of items.entries()) {
    const prompt = textOf(plannerMessagesOf(item).at(-1)!.content);
    const plan = mode === "expected" ? expectedPlan(item) : wrongPlan(item, index, items);
    answers.set(prompt, JSON.stringify(wireAnswer(plan)));
  }
  const server = createServer();
  const state: ScriptedPlanner = {
    baseUrl: "",
    answered: 0,
    unmatched: 0,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: ChatBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
      } catch {
        body = {};
      }
      const users = (body.messages ?? []).filter((m) => m.role === "user");
      const prompt = textOf(users.at(-1)?.content);
      const answer = answers.get(prompt);
      if (!req.url?.endsWith("/chat/completions") || answer === undefined) {
        state.unmatched += 1;
        res.writeHead(500, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: "scripted planner: no item has this message", type: "server_error" },
          }),
        );
        return;
      }
      state.answered += 1;
      // Function calling answers with a tool call; json_schema and json_object with the content.
      const tool = body.tools?.[0]?.function?.name;
      const message = tool
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: `call_${state.answered}`, type: "function", function: { name: tool, arguments: answer } },
            ],
          }
        : { role: "assistant", content: answer, refusal: null };
      const promptTokens = Math.ceil(
        (body.messages ?? []).map((m) => textOf(m.content)).join("\n").length / 4,
      );
      const completionTokens = Math.ceil(answer.length / 4);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-planner-${state.answered}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? "scripted",
          choices: [{ index: 0, message, finish_reason: tool ? "tool_calls" : "stop", logprobs: null }],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
