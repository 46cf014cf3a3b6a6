/**
 * Model mode of the long-memory evaluation: each history is played through Memo itself (the app's
 * composition root, `createMemoRuntime`, with the given OpenAI-compatible model for every node and
 * for memory), on a fresh embedded database, with a clock the harness sets to each message's time.
 * Memo answers as it would on WhatsApp (its own replies, not the history's assistant lines, which
 * only show what the user was answered), its background memory rounds are awaited after each
 * session, and then the history's questions are asked as messages, in order of their time. A reply
 * scores 1 when it holds an accepted answer, or, for an abstention, says Memo does not know.
 *
 * The questions of a history are asked in one conversation, as a user would ask them: the window
 * (the last 10 messages, at most 12 hours old) holds the earlier questions and answers.
 */
import { PGlite } from "@electric-sql/pglite";
import { createMemoRuntime } from "../../src/app/createMemoRuntime.js";
import { loadConfig } from "../../src/config/env.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { PGLITE_EXTENSIONS } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { createPglitePool } from "../../src/db/pglitePool.js";
import { createLogger } from "../../src/utils/logger.js";
import type { EvalModel } from "../suite.js";
import {
  localInstant,
  MESSAGE_SPACING_MINUTES,
  type HistoryCase,
  type MemoryDataset,
  type Question,
} from "./dataset.js";
import { holdsAnswer, saysDoesNotKnow, type QuestionResult } from "./metrics.js";

/** The evaluated user (one per database, so one number serves every history). */
const PHONE = "972500000035";
const MINUTE_MS = 60_000;

/** A reply's score: it holds an accepted answer, or for an abstention says Memo does not know. @internal */
export function scoreReply(question: Question, reply: string): number {
  if (question.expect.abstain) return saysDoesNotKnow(reply) ? 1 : 0;
  return holdsAnswer(reply, question.expect.answer) ? 1 : 0;
}

/** The environment of a Memo whose every model is `model` on its OpenAI-compatible server. */
function modelEnvironment(model: EvalModel): Record<string, string> {
  return {
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: model.apiKey,
    ...Object.fromEntries(
      ["PLANNER", "RESOLVER", "RESPONSE", "MEMORY", "FALLBACK", "IMAGE"].map((node) => [
        `LLM_${node}_MODEL`,
        model.model,
      ]),
    ),
    MEMORY_MODE: "llm",
    // An OpenAI-compatible server need not serve embeddings; memory and notes work by words.
    EMBEDDINGS_MODEL: "off",
    LOG_LEVEL: "silent",
  };
}

/** Plays one history through Memo and asks its questions. */
async function runHistory(
  { history }: HistoryCase,
  questions: readonly Question[],
  model: EvalModel,
): Promise<QuestionResult[]> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  try {
    await migrate(pool, MIGRATIONS);
    const config = loadConfig(modelEnvironment(model));
    let now = localInstant(history.sessions[0]!.at, history.timeZone);
    const memo = createMemoRuntime({
      config,
      pool,
      checkpointer: await createCheckpointer("postgres", pool),
      logger: createLogger("silent"),
      clock: () => now,
    });
    await memo.users.getOrCreate(PHONE, { timeZone: history.timeZone, language: history.language });
    for (const session of history.sessions) {
      const start = localInstant(session.at, history.timeZone);
      for (const [index, message] of session.messages.entries()) {
        if (message.role !== "user") continue;
        now = start + index * MESSAGE_SPACING_MINUTES * MINUTE_MS;
        await memo.runtime.invokeMemoGraph(PHONE, message.text);
      }
      await memo.longTerm.idle();
    }
    const results: QuestionResult[] = [];
    const ordered = [...questions].sort(
      (a, b) => localInstant(a.askedAt, history.timeZone) - localInstant(b.askedAt, history.timeZone),
    );
    for (const question of ordered) {
      now = localInstant(question.askedAt, history.timeZone);
      const reply = await memo.runtime.invokeMemoGraph(PHONE, question.question);
      await memo.longTerm.idle();
      results.push({ question, score: scoreReply(question, reply.text), detail: reply.text });
    }
    return results;
  } finally {
    await pool.end();
    await pglite.close();
  }
}

/** Runs every history of the dataset through Memo with `model` and scores the replies. */
export async function runWithModel(
  dataset: MemoryDataset,
  model: EvalModel,
  log: (line: string) => void,
): Promise<QuestionResult[]> {
  const results: QuestionResult[] = [];
  for (const historyCase of dataset.cases) {
    const questions = dataset.questions.filter((q) => q.history === historyCase.history.id);
    if (questions.length === 0) continue;
    log(
      `${historyCase.history.id}: ${historyCase.history.sessions.length} sessions, ${questions.length} questions`,
    );
    results.push(...(await runHistory(historyCase, questions, model)));
  }
  return results;
}
