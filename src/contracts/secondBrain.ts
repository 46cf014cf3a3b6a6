/**
 * The second-brain capability's contract, as far as it is written: the plan actions the planner
 * may name, notes first, then what Memo remembers (its operations are still typed in
 * graph/capabilities/secondBrain/).
 */
import type { CapabilityActions } from "./contract.js";

export const secondBrainActions = {
  capability: "second-brain",
  actions: [
    { name: "store_note" },
    {
      name: "search_notes",
      hint: 'also a question about something the user noted: "what\'s the wifi password?", "מה הקוד של הלוקר?"',
      reads: true,
    },
    { name: "summarize_notes", reads: true },
    { name: "list_notes", reads: true },
    { name: "update_note" },
    { name: "delete_note" },
  ],
} as const satisfies CapabilityActions;

/** What Memo remembers about the user, and each action's executor function. */
export const memoryActions = {
  capability: "second-brain",
  actions: [
    {
      name: "list_memories",
      hint: '"what do you remember about me?"',
      reads: true,
      functionName: "memory.list",
    },
    {
      name: "forget_memory",
      hint: '"forget that I…", "תשכח ש…"; copy the words of what to forget into constraints',
      functionName: "memory.forget",
    },
    { name: "forget_everything", functionName: "memory.forgetAll" },
  ],
} as const satisfies CapabilityActions;
