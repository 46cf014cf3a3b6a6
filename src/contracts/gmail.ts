/**
 * The gmail capability's contract, as far as it is written: the plan actions the planner may name
 * (its operations and their arguments are still typed in graph/capabilities/gmail/).
 */
import type { CapabilityActions } from "./contract.js";

export const gmailActions = {
  capability: "gmail",
  actions: [
    { name: "search_email", reads: true },
    { name: "read_email", reads: true },
    { name: "draft_email" },
    { name: "send_email" },
    { name: "reply_email" },
    { name: "forward_email" },
    { name: "label_email" },
    { name: "archive_email" },
    { name: "delete_email" },
    { name: "mark_email_read" },
  ],
} as const satisfies CapabilityActions;
