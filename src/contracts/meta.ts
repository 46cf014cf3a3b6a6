/**
 * The meta capability's contract, as far as it is written: the plan actions about Memo itself
 * that the planner names by rule (its executor functions are in graph/capabilities/core/).
 */
import type { CapabilityActions } from "./contract.js";

export const metaActions = {
  capability: "meta",
  actions: [
    { name: "connect_google", hint: '"connect Google"' },
    { name: "disconnect_google", hint: '"disconnect Google"' },
    { name: "calendar_feed", hint: "asking for a link to see Memo's calendar in another calendar app" },
  ],
} as const satisfies CapabilityActions;
