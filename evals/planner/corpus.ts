/**
 * The planner evaluation's data (docs/EVALS.md): messages that reach the planner's model call,
 * each with the plan expected of it, one JSON object a line in `corpusEn.jsonl` and
 * `corpusHe.jsonl`. Times are local wall times ("2026-03-10T09:15") in the item's zone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { localToInstant } from "../../src/nlu/zonedTime.js";
import { PLANNER_CAPABILITIES } from "../../src/types/index.js";
import { isValidTimeZone } from "../../src/utils/timeContext.js";

/** The folder of this suite's data. */
const PLANNER_EVAL_DIR = fileURLToPath(new URL(".", import.meta.url));

/** The corpus files, one per language, read in this order. */
const PLANNER_CORPUS_FILES = ["corpusEn.jsonl", "corpusHe.jsonl"] as const;

export const PLANNER_CATEGORIES = [
  "single",
  "multi_step",
  "reference",
  "document",
  "hebrew_date",
  "injection",
  "forwarded",
  "must_ask",
  "conversation",
  "meta",
] as const;

/** An item's local time when it names none. */
const DEFAULT_NOW = "2026-03-10T09:15";
/** An item's zone when it names none, by its language. */
const DEFAULT_ZONE = { en: "America/New_York", he: "Asia/Jerusalem" } as const;

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const wallTime = z.string().regex(WALL_TIME, "a local wall time like 2026-03-10T09:15");
const words = z.string().trim().min(1);
const capability = z.enum(PLANNER_CAPABILITIES);

/** Words that must appear in the step's values: anywhere, or only in its constraints or its changes. */
const argSchema = z.union([words, z.strictObject({ in: z.enum(["constraints", "changes"]), words })]);

const stepSchema = z.strictObject({
  capability,
  /** A name or the names the prompt allows for it (task or reminder; "…_tasks" for several). */
  action: z.union([words, z.array(words).min(1)]),
  /** Words that must appear, whole, among the step's constraint and change values. */
  args: z.array(argSchema),
  /** Indexes of earlier expected steps this one needs. */
  dependsOn: z.array(z.number().int().min(0)),
  /** One step or one per thing ("add oat milk and bananas": one add_list_item each); args looked up across them. */
  repeatable: z.boolean().optional(),
});

const intentType = z.enum(["operation", "conversation", "meta"]);

const itemSchema = z.strictObject({
  id: z.string().regex(/^(en|he)-[a-z0-9_-]+-\d{3,}$/, "an id like en-db-001"),
  language: z.enum(["en", "he"]),
  category: z.enum(PLANNER_CATEGORIES),
  message: words,
  now: wallTime.optional(),
  timezone: z.string().refine(isValidTimeZone, "an IANA time zone").optional(),
  history: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), text: words })).optional(),
  latestActions: z
    .array(
      z.strictObject({
        capability,
        action: words,
        summary: words,
        when: wallTime.optional(),
      }),
    )
    .optional(),
  forwarded: z.boolean().optional(),
  document: z
    .strictObject({ title: words, fileName: z.string().nullable().optional(), excerpt: words })
    .optional(),
  expect: z.strictObject({
    /** The intent, or the intents equally right ("connect my Google": meta or operation). */
    intentType: z.union([intentType, z.array(intentType).min(1)]),
    ask: z.boolean(),
    risk: z.enum(["medium", "high"]).optional(),
    refuse: z.boolean().optional(),
    steps: z.array(stepSchema),
    /** Other whole plans equally right (a single "update_tasks" for "list the overdue and push them"). */
    alternatives: z.array(z.array(stepSchema).min(1)).optional(),
  }),
  note: z.string().optional(),
});

export type PlannerItem = z.infer<typeof itemSchema>;
export type ExpectedStep = z.infer<typeof stepSchema>;
export type ExpectedArg = z.infer<typeof argSchema>;
export type IntentType = z.infer<typeof intentType>;

/** An arg's words. */
export function argWords(arg: ExpectedArg): string {
  return typeof arg === "string" ? arg : arg.words;
}

/** The acceptable intents of an item. */
export function intentsOf(item: PlannerItem): IntentType[] {
  const { intentType: wanted } = item.expect;
  return typeof wanted === "string" ? [wanted] : wanted;
}

/** The expected plan and its alternatives, the expected plan first. */
export function plansOf(item: PlannerItem): ExpectedStep[][] {
  return [item.expect.steps, ...(item.expect.alternatives ?? [])];
}

/** The acceptable action names of an expected step. */
export function actionsOf(step: ExpectedStep): string[] {
  return typeof step.action === "string" ? [step.action] : step.action;
}

/** The item's zone: its own, else its language's default. */
export function zoneOf(item: PlannerItem): string {
  return item.timezone ?? DEFAULT_ZONE[item.language];
}

/** The instant of a local wall time ("2026-03-10T09:15") in `timeZone`. */
export function wallInstant(wall: string, timeZone: string): number {
  const match = WALL_TIME.exec(wall);
  if (!match) throw new RangeError(`Not a local wall time: ${wall}`);
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  return localToInstant({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, timeZone);
}

/** The instant the item's message is sent. */
export function nowOf(item: PlannerItem): number {
  return wallInstant(item.now ?? DEFAULT_NOW, zoneOf(item));
}

/**
 * Reads a JSONL corpus text; throws naming the file and line of the first line that is not JSON or
 * not an item, or whose id does not start with its language.
 * @internal
 */
export function parsePlannerCorpus(text: string, file: string): PlannerItem[] {
  const items: PlannerItem[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const where = `${file} line ${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`, {
        cause: error,
      });
    }
    const parsed = itemSchema.safeParse(json);
    if (!parsed.success) {
      const id = typeof json === "object" && json && "id" in json ? ` (${String(json.id)})` : "";
      throw new Error(`${where}${id}: ${z.prettifyError(parsed.error)}`);
    }
    if (!parsed.data.id.startsWith(`${parsed.data.language}-`)) {
      throw new Error(
        `${where}: id "${parsed.data.id}" does not start with its language "${parsed.data.language}-"`,
      );
    }
    items.push(parsed.data);
  }
  return items;
}

/** Reads and checks every corpus file (throws naming the file that is missing or the line that is wrong). */
export function loadPlannerCorpus(dir: string = PLANNER_EVAL_DIR): PlannerItem[] {
  return PLANNER_CORPUS_FILES.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(join(dir, file), "utf8");
    } catch (error) {
      throw new Error(
        `evals/planner/${file} is missing: the planner corpus (docs/EVALS.md) is not in this tree`,
        {
          cause: error,
        },
      );
    }
    return parsePlannerCorpus(text, file);
  });
}
