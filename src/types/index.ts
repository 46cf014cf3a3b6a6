export type * from "./conversation.js";
export type * from "./plan.js";
export type * from "./user.js";
export { CAPABILITY_NAMES } from "./plan.js";
