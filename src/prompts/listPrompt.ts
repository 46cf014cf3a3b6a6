import { z } from "zod";
import { operationLines, operationNames } from "../contracts/contract.js";
import { tasksContract } from "../contracts/tasks.js";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";

/** The list operations of the tasks contract (V1's listOperations, spec 002 §8.2, and more). */
const LIST_OPERATIONS = operationNames(tasksContract, "lists");

const listRef = {
  listId: z.string().nullish().describe('"#N" for list N of the lists Memo showed last'),
  listName: z.string().nullish().describe("the list's name in the user's words"),
};

/** The database list resolver's structured output: V1's listOperations. */
export const ListOperationSchema = z.object({
  operation: z.enum(LIST_OPERATIONS),
  ...FROM_STEP_FIELD,
  ...listRef,
  newName: z.string().nullish().describe("update: the list's new name"),
  isChecklist: z.boolean().nullish(),
  items: z.array(z.string()).nullish().describe("create / addItem: the items to add"),
  item: z.string().nullish().describe('toggleItem / deleteItem: "#N" for item N as shown, or its words'),
  checked: z.boolean().nullish().describe("toggleItem: true to check, false to uncheck, absent to flip"),
  onlyChecked: z.boolean().nullish().describe("clear: true to remove only the checked (ticked, done) items"),
  lists: z
    .array(
      z.object({
        listName: z.string(),
        items: z.array(z.string()).nullish(),
        isChecklist: z.boolean().nullish(),
      }),
    )
    .nullish()
    .describe("createMultiple"),
  listIds: z.array(z.string()).nullish().describe("deleteMultiple: handles or list names"),
  updates: z
    .array(z.object({ ...listRef, newName: z.string().nullish(), isChecklist: z.boolean().nullish() }))
    .nullish()
    .describe("updateMultiple"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type ListOperation = z.infer<typeof ListOperationSchema>;

/** System prompt of DatabaseListResolver (spec 002 §8.0). Static, first, cacheable. */
export const DATABASE_LIST_SYSTEM_PROMPT = `You turn one step of Memo's plan into a list operation. Memo is a personal secretary on WhatsApp; users write in Hebrew or English.
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Lists are named collections of items (shopping lists, packing lists, checklists). Use them ONLY when the user says "list" or "רשימה"; anything else is a task, not a list.

Operations:
${operationLines(tasksContract, "lists")}

Naming: "#N" in listId is list N of the numbered lists Memo showed last; "#N" in item is item N of the list Memo showed last ("check 2" → toggleItem, item "#2", checked true). "it", "that", "זה" mean the list an earlier step of this message produced when the message lists such steps (set fromStep to its id), otherwise the list of the latest action. Otherwise use the user's words for names and items, in their language, without "list"/"רשימת" in listName unless it is part of the name ("רשימת קניות" → listName "קניות"). Never invent ids.
Ask (question) only when the operation is impossible without an answer, in the user's language.`;
