// What one request to the scripted LLM server was for, and how many tokens it carried: shared by
// the end_to_end and llm_calls benches, which count calls per turn from the server's requests.
import { CALENDAR_FIND_SYSTEM_PROMPT } from "../src/prompts/calendarFindPrompt.js";
import { CALENDAR_MUTATE_SYSTEM_PROMPT } from "../src/prompts/calendarMutatePrompt.js";
import { DATABASE_LIST_SYSTEM_PROMPT } from "../src/prompts/listPrompt.js";
import { DATABASE_TASK_SYSTEM_PROMPT } from "../src/prompts/taskPrompt.js";
import { GENERAL_SYSTEM_PROMPT } from "../src/prompts/generalPrompt.js";
import { GMAIL_SYSTEM_PROMPT } from "../src/prompts/gmailPrompt.js";
import { PLANNER_SYSTEM_PROMPT } from "../src/prompts/plannerPrompt.js";
import { RESPONSE_WRITER_SYSTEM_PROMPT } from "../src/prompts/responseWriterPrompt.js";
import { SECOND_BRAIN_SYSTEM_PROMPT } from "../src/prompts/secondBrainPrompt.js";
import { CHUNK_SUMMARY_PROMPT, FORGET_PROMPT } from "../src/prompts/conversationSummaryPrompt.js";
import { FACTS_PROMPT } from "../src/prompts/factExtractionPrompt.js";
import { systemPromptOf, textOf, type RecordedRequest } from "../tests/support/scriptedOpenAI.js";

/** The node an LLM request came from; "memory:*" run in the background after the reply. */
export type CallKind =
  | "planner"
  | "resolver:tasks"
  | "resolver:lists"
  | "resolver:calendar_find"
  | "resolver:calendar_mutate"
  | "resolver:notes"
  | "resolver:gmail"
  | "resolver:general"
  | "notes:answer"
  | "notes:summary"
  | "response_writer"
  | "memory:facts"
  | "memory:summary"
  | "memory:forget"
  | "other";

const firstLine = (prompt: string) => prompt.split("\n", 1)[0]!;

/** Each kind by the first line of its system prompt (the prompts in src/ are the source of truth). */
const KINDS: [string, CallKind][] = [
  [firstLine(PLANNER_SYSTEM_PROMPT), "planner"],
  [firstLine(DATABASE_TASK_SYSTEM_PROMPT), "resolver:tasks"],
  [firstLine(DATABASE_LIST_SYSTEM_PROMPT), "resolver:lists"],
  [firstLine(CALENDAR_FIND_SYSTEM_PROMPT), "resolver:calendar_find"],
  [firstLine(CALENDAR_MUTATE_SYSTEM_PROMPT), "resolver:calendar_mutate"],
  [firstLine(SECOND_BRAIN_SYSTEM_PROMPT), "resolver:notes"],
  [firstLine(GMAIL_SYSTEM_PROMPT), "resolver:gmail"],
  [firstLine(GENERAL_SYSTEM_PROMPT), "resolver:general"],
  [firstLine(RESPONSE_WRITER_SYSTEM_PROMPT), "response_writer"],
  [firstLine(FACTS_PROMPT), "memory:facts"],
  [firstLine(CHUNK_SUMMARY_PROMPT), "memory:summary"],
  [firstLine(FORGET_PROMPT), "memory:forget"],
  // answer.ts keeps these two private; their opening words are stable enough to match.
  ["You answer the user's question using only their own notes", "notes:answer"],
  ["You sum up the user's own notes", "notes:summary"],
];

export function callKind(req: RecordedRequest): CallKind {
  const system = systemPromptOf(req) ?? "";
  return KINDS.find(([opening]) => system.startsWith(opening))?.[1] ?? "other";
}

/** Whether the call is part of the turn (before the reply), not the background memory work after it. */
export const inTurn = (kind: CallKind) => !kind.startsWith("memory:");

/** Tokens as the scripted server estimates them: one per 4 characters, rounded up. */
export const roughTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * A request's input tokens, estimated: the messages' text plus the structured-output schema it
 * declared (OpenAI counts the response_format schema or the tool definition as input too).
 */
export function inputTokens(req: RecordedRequest): { messages: number; schema: number } {
  const messages = roughTokens(req.body.messages.map((m) => textOf(m.content)).join("\n"));
  const declared = req.body.response_format ?? req.body.tools;
  return { messages, schema: declared === undefined ? 0 : roughTokens(JSON.stringify(declared)) };
}

/**
 * A request's input in the order the provider reads it for prefix caching: the declared
 * structured-output schema (OpenAI puts it ahead of the messages), then each message's role and
 * text, in order.
 */
export function serializedInput(req: RecordedRequest): string {
  const declared = req.body.response_format ?? req.body.tools;
  const messages = req.body.messages.map((m) => `${m.role}:\n${textOf(m.content)}`).join("\n");
  return `${declared === undefined ? "" : JSON.stringify(declared)}\n${messages}`;
}

/** OpenAI caches only prompts of at least this many tokens... */
const OPENAI_CACHE_MIN_TOKENS = 1024;
/** ...and serves a cached prefix in steps of this many tokens. */
const OPENAI_CACHE_STEP_TOKENS = 128;

/**
 * The tokens of a shared prefix OpenAI would bill as cached: none below its 1,024-token minimum,
 * else the prefix rounded down to a 128-token step (1,024 is a multiple of 128).
 */
export function openAiCachedTokens(prefixTokens: number): number {
  if (prefixTokens < OPENAI_CACHE_MIN_TOKENS) return 0;
  return Math.floor(prefixTokens / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS;
}

/** How many leading characters two texts share. */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/** One call as the prefix measure sees it: its node, the turn it was part of, its serialized input. */
export interface PrefixCall {
  kind: CallKind;
  turn: number;
  input: string;
}

/**
 * Each call's cacheable prefix: the longest run of leading characters its serialized input shares
 * with an earlier call of the same node in another turn (another message, of the same or another
 * user), which is what a provider's prefix cache can serve. Null for a call with no such earlier
 * call (its cache would be cold whatever the layout).
 */
export function cacheablePrefixes(calls: readonly PrefixCall[]): (number | null)[] {
  return calls.map((call, i) => {
    let best: number | null = null;
    for (const earlier of calls.slice(0, i)) {
      if (earlier.kind !== call.kind || earlier.turn === call.turn) continue;
      best = Math.max(best ?? 0, commonPrefixLength(call.input, earlier.input));
    }
    return best;
  });
}
