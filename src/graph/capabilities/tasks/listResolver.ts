import {
  DATABASE_LIST_SYSTEM_PROMPT,
  ListOperationSchema,
  type ListOperation,
} from "../../../prompts/listPrompt.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import { t } from "../../../messages/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { resolveOperation } from "../../resolvers/resolverPrompt.js";
import { actionNames } from "../../../contracts/contract.js";
import { tasksContract } from "../../../contracts/tasks.js";

/** Plan actions about lists or their items ("create_list", "add_list_item", "toggle_item"), not tasks. @internal */
export function isListAction(action: string): boolean {
  const words = action.toLowerCase().split(/[_\s-]+/);
  if (words.some((w) => w === "task" || w === "tasks" || w === "reminder" || w === "reminders")) return false;
  return words.some(
    (w) => w === "list" || w === "lists" || w === "item" || w === "items" || w === "checklist",
  );
}

function missing(op: ListOperation, context: CapabilityContext): string | null {
  const { language } = context;
  switch (op.operation) {
    case "create":
      return op.listName?.trim() ? null : t(language, "askListName");
    case "createMultiple":
      return op.lists?.length ? null : t(language, "askListName");
    case "addItem":
      return op.items?.length || op.item?.trim() ? null : t(language, "askItems");
    case "toggleItem":
    case "deleteItem":
      return op.item?.trim() ? null : t(language, "whichItem");
    case "update":
      return op.newName?.trim() || typeof op.isChecklist === "boolean" ? null : t(language, "askChange");
    default:
      return null;
  }
}

/**
 * database (lists): the LLM turns a list step into one of V1's list operations (spec 002 §8.2),
 * validated by its zod schema; code checks it is complete and asks otherwise.
 */
export const listResolver: Resolver = {
  name: "DatabaseListResolver",
  capability: "database",
  // The plan actions of the contract's list operations ("create_list", "clear_list"…).
  actions: actionNames(tasksContract, "lists"),
  handles: isListAction,
  resolve: (step: PlanStep, context: CapabilityContext): Promise<ResolverResult> =>
    resolveOperation(
      {
        name: "DatabaseListResolver",
        system: DATABASE_LIST_SYSTEM_PROMPT,
        schema: ListOperationSchema,
        outputName: "list_operation",
        prefix: "lists",
        missing,
      },
      step,
      context,
    ),
};
