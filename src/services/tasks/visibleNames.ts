import { onlyInvisible } from "../../utils/args.js";
import { t } from "../../messages/index.js";

/** The task and list arguments that name something, and what they name in a reply. */
const NAME_FIELDS = {
  text: "what.task",
  newText: "what.task",
  subtask: "what.item",
  category: "what.category",
  listName: "what.list",
  newName: "what.list",
  item: "what.item",
  items: "what.item",
} as const;

/**
 * The refusal for a name that shows nothing (only zero-width characters or direction marks), in
 * the arguments or in any of their drafts (tasks, lists, updates); null when every name can be
 * seen. Visible names lose such characters at their ends when read (`nonEmpty`), so "" can never
 * be stored, whichever way the words came (fast path, planner, a question answered).
 */
export function invisibleNameReply(args: Record<string, unknown>, language: "he" | "en"): string | null {
  for (const [field, what] of Object.entries(NAME_FIELDS)) {
    const value = args[field];
    if ((Array.isArray(value) ? value : [value]).some(onlyInvisible))
      return t(language, "invisibleName", { what: t(language, what) });
  }
  for (const nested of ["tasks", "lists", "updates"]) {
    const drafts: unknown = args[nested];
    if (!Array.isArray(drafts)) continue;
    for (const draft of drafts as unknown[]) {
      const reply =
        typeof draft === "object" && draft !== null
          ? invisibleNameReply(draft as Record<string, unknown>, language)
          : null;
      if (reply) return reply;
    }
  }
  return null;
}
