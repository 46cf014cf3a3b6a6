/**
 * The long-memory evaluation's data (docs/EVALS.md): multi-session histories, the fixed extraction
 * output of each (committed apart from the questions, so recall is not self-fulfilling), and the
 * questions. Every time in these files is a local wall time ("2026-03-02T09:15") in the history's
 * zone; `localInstant` turns one into an instant.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { localToInstant } from "../../src/nlu/zonedTime.js";

/** The folder of this suite's data. */
const MEMORY_EVAL_DIR = fileURLToPath(new URL(".", import.meta.url));

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const wallTime = z.string().regex(WALL_TIME, "a local wall time like 2026-03-02T09:15");
const day = z.string().regex(DAY, "a local date like 2026-03-02");
const language = z.enum(["en", "he"]);

const historySchema = z.object({
  id: z.string().min(1),
  language,
  timeZone: z.string().min(1),
  sessions: z
    .array(
      z.object({
        at: wallTime,
        messages: z.array(z.object({ role: z.enum(["user", "assistant"]), text: z.string().min(1) })).min(2),
      }),
    )
    .min(3),
});

const factSchema = z.object({
  key: z.string().min(1),
  type: z.enum(["fact", "preference", "decision", "goal", "constraint", "entity"]),
  content: z.string().min(1),
  subject: z.string().min(1),
  attribute: z.string().min(1).nullable(),
  saidAt: wallTime,
  validFrom: wallTime.optional(),
  importance: z.number().min(0).max(1).optional(),
  people: z.array(z.string().min(1)).optional(),
});

const episodeSchema = z.object({
  key: z.string().min(1),
  kind: z.enum(["decision", "problem_solved", "breakthrough", "issue_identified", "task_completed", "pivot"]),
  title: z.string().min(1),
  summary: z.string().min(1),
  outcome: z.string().min(1).optional(),
  participants: z.array(z.string().min(1)),
  significance: z.number().min(0).max(1),
  occurredAt: wallTime,
});

const chunkSchema = z.object({
  key: z.string().min(1),
  summary: z.string().min(1),
  keyTopics: z.array(z.string().min(1)).min(1),
  startedAt: wallTime,
  endedAt: wallTime,
});

const extractionSchema = z.object({
  facts: z.array(factSchema).min(1),
  episodes: z.array(episodeSchema),
  chunks: z.array(chunkSchema),
});

export const QUESTION_CATEGORIES = [
  "knowledge_update",
  "temporal",
  "episode",
  "multi_session",
  "person",
  "abstention",
] as const;
export type QuestionCategory = (typeof QUESTION_CATEGORIES)[number];

const questionSchema = z.object({
  id: z.string().min(1),
  history: z.string().min(1),
  language,
  category: z.enum(QUESTION_CATEGORIES),
  askedAt: wallTime,
  question: z.string().min(1),
  /** The local days a temporal question names ("in March"), both ends included. */
  period: z.object({ from: day, to: day }).optional(),
  expect: z.object({
    keys: z.array(z.string().min(1)),
    answer: z.array(z.string().min(1)),
    abstain: z.literal(true).optional(),
  }),
});

export type History = z.infer<typeof historySchema>;
/** @internal */
export type ExtractedFact = z.infer<typeof factSchema>;
export type Extraction = z.infer<typeof extractionSchema>;
export type Question = z.infer<typeof questionSchema>;

/** One history with its fixed extraction. */
export interface HistoryCase {
  history: History;
  extraction: Extraction;
}

export interface MemoryDataset {
  cases: HistoryCase[];
  questions: Question[];
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

/** Reads and checks every history, extraction and question (throws naming the file that is wrong). */
export function loadMemoryDataset(dir: string = MEMORY_EVAL_DIR): MemoryDataset {
  const historyFiles = readdirSync(join(dir, "histories"))
    .filter((name) => name.endsWith(".json"))
    .sort();
  const cases = historyFiles.map((name): HistoryCase => {
    const id = name.slice(0, -".json".length);
    const history = parseOrThrow(historySchema, readJson(join(dir, "histories", name)), `histories/${name}`);
    const extraction = parseOrThrow(
      extractionSchema,
      readJson(join(dir, "extractions", name)),
      `extractions/${name}`,
    );
    if (history.id !== id) throw new Error(`histories/${name}: id is "${history.id}", not "${id}"`);
    return { history, extraction };
  });
  const questions = readFileSync(join(dir, "questions.jsonl"), "utf8")
    .split("\n")
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== "")
    .map(({ line, number }) =>
      parseOrThrow(questionSchema, JSON.parse(line), `questions.jsonl line ${number}`),
    );
  return { cases, questions };
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The instant of a local wall time ("2026-03-02T09:15") or day ("2026-03-02", its midnight) in `timeZone`. */
export function localInstant(wall: string, timeZone: string): number {
  const match = WALL_TIME.exec(wall) ?? DAY.exec(wall);
  if (!match) throw new RangeError(`Not a local wall time: ${wall}`);
  const [year, month, dayOfMonth, hour, minute] = match.slice(1).map(Number);
  return localToInstant(
    { year: year!, month: month!, day: dayOfMonth!, hour: hour ?? 0, minute: minute ?? 0 },
    timeZone,
  );
}

/** Minutes between consecutive messages of a session when it is played back (message n at `at` + n minutes). */
export const MESSAGE_SPACING_MINUTES = 1;
