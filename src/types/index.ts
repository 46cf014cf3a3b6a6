export type * from "./conversation.js";
export type * from "./document.js";
export type * from "./execution.js";
export type * from "./hitl.js";
export type * from "./plan.js";
export type * from "./user.js";
export { CAPABILITY_NAMES, PLANNER_CAPABILITIES } from "./plan.js";
export { CONFIDENCE_THRESHOLD, HITL_TTL_MS, MAX_HITL_ATTEMPTS, MAX_HITL_ROUNDS } from "./hitl.js";
export type * from "./tasks.js";
