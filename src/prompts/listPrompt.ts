import { z } from "zod";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";

/** The operations of V1's listOperations (spec 002 §8.2), and "clear" (empty a list). */
export const LIST_OPERATIONS = [
  "create",
  "createMultiple",
  "get",
  "getAll",
  "update",
  "updateMultiple",
  "delete",
  "deleteMultiple",
  "addItem",
  "toggleItem",
  "deleteItem",
  "clear",
] as const;

export type ListOperationName = (typeof LIST_OPERATIONS)[number];

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
- create: listName, items (may be empty), isChecklist (default true; false only for a plain list the user does not tick off).
- createMultiple: "lists". get: one list (listId or listName). getAll: all lists.
- update: listId or listName names the list; newName / isChecklist are the new values. updateMultiple: "updates".
- delete: one list. deleteMultiple: "listIds" (handles or names).
- addItem: listName (or listId) and the new "items" ("add milk and eggs to the shopping list" → items ["milk", "eggs"]).
- toggleItem: listName and "item" to tick or untick; checked true/false when the user says which.
- deleteItem: listName and "item" to remove.
- clear: listName; removes every item and keeps the list ("clear / empty the shopping list", "remove all items from shopping", "נקה את רשימת הקניות"). onlyChecked true removes only the checked items ("remove the done items from shopping", "מחק את הפריטים המסומנים"). Deleting the list itself is delete.

Naming: "#N" in listId is list N of the numbered lists Memo showed last; "#N" in item is item N of the list Memo showed last ("check 2" → toggleItem, item "#2", checked true). "it", "that", "זה" mean the list an earlier step of this message produced when the message lists such steps (set fromStep to its id), otherwise the list of the latest action. Otherwise use the user's words for names and items, in their language, without "list"/"רשימת" in listName unless it is part of the name ("רשימת קניות" → listName "קניות"). Never invent ids.
Ask (question) only when the operation is impossible without an answer, in the user's language.`;
