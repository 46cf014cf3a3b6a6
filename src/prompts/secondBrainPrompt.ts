import { z } from "zod";
import { operationLines, operationNames } from "../contracts/contract.js";
import { secondBrainContract } from "../contracts/secondBrain.js";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";

/** The note operations of the second-brain contract (spec 002 §8.2, with "getAll" to list every note). */
const NOTE_OPERATIONS = operationNames(secondBrainContract, "notes");

/** SecondBrainResolver's structured output. Optional fields also take null: models often send it. */
export const NoteOperationSchema = z.object({
  operation: z.enum(NOTE_OPERATIONS),
  ...FROM_STEP_FIELD,
  content: z
    .string()
    .nullish()
    .describe("store: the note's text as the user wants it kept, in their language and words"),
  category: z
    .string()
    .nullish()
    .describe("store: one short category word when obvious (wifi, recipe, health…)"),
  tags: z.array(z.string()).nullish().describe("store: up to 5 short keywords that help find it later"),
  query: z
    .string()
    .nullish()
    .describe("search, summarize: what to look for; update, delete: the user's words naming the note"),
  noteRef: z
    .string()
    .nullish()
    .describe('update, delete: "#N" for note N of the list Memo showed last, "@N" for latest action N'),
  newContent: z.string().nullish().describe("update: the note's whole new text"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type NoteOperation = z.infer<typeof NoteOperationSchema>;

/** System prompt of SecondBrainResolver. Static, first, cacheable. */
export const SECOND_BRAIN_SYSTEM_PROMPT = `You turn one step of Memo's plan into a note operation. Memo is a personal secretary on WhatsApp; users write in Hebrew or English. Notes are the user's second brain: things they ask Memo to keep and find again (a wifi password, a recipe, gift ideas, a doctor's number).
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Operations:
${operationLines(secondBrainContract, "notes")}

Rules:
1. Never invent ids: notes are named by "#N", "@N" or the user's words, and code finds them.
2. A request with a time, a date or "remind me" is not a note; such steps do not reach you, but if one does, ask (question) whether they want a reminder.
3. A question about what the user noted ("what's the wifi password?", "מה הקוד של הלוקר?") is search with the key words as query.
4. Ask (question, in the user's language) only when something essential is missing: store with nothing to keep, update without the new text.`;
