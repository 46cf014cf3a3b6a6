/**
 * The calendar capability's contract, as far as it is written: the plan actions the planner may
 * name (its operations and their arguments are still typed in graph/capabilities/calendar/).
 */
import type { CapabilityActions } from "./contract.js";

export const calendarActions = {
  capability: "calendar",
  actions: [
    { name: "create_event", hint: "also several at once, all-day events and trips" },
    { name: "create_recurring_event" },
    { name: "list_events", hint: "what's on a day or range", reads: true },
    { name: "find_event", reads: true },
    { name: "check_conflicts", reads: true },
    { name: "analyze_schedule", hint: 'busy hours, free time, "what does my week look like"', reads: true },
    { name: "update_event", hint: "move, rename, change" },
    { name: "delete_event", hint: "also several, or a series" },
    { name: "end_recurring_event", hint: "stop a series from a date" },
  ],
} as const satisfies CapabilityActions;
