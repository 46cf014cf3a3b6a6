/**
 * The household capability's contract: its operations are planned only in code (a typed "accept"
 * or "stop" while invitations are open, a bare "Dana: …"), never by the planner, so none has a
 * plan action; these are the arguments its executor receives once the entity resolver has asked
 * what it needed to (which invitation, whether to give the task).
 */
import { z } from "zod";
import type { TextResult } from "./general.js";
import { defineContract, type FunctionOf, type OperationOf } from "./contract.js";

export const householdContract = defineContract("household", {
  "household.answer": {
    args: z.object({ answer: z.enum(["accept", "decline"]), invitationId: z.string() }),
    description: "accepts or declines the one invitation chosen.",
  },
  "household.give": {
    args: z.object({ memberPhone: z.string(), text: z.string() }),
    description: "gives the household member the task the user agreed to give.",
  },
});

export type HouseholdFunction = FunctionOf<typeof householdContract>;
/** One household operation with its arguments, as the executor switches on it. */
export type HouseholdOperation = OperationOf<typeof householdContract>;

/** What each operation returns as data: the words to send. */
export type HouseholdResults = Record<HouseholdFunction, TextResult>;
