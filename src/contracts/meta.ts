/**
 * The meta capability's contract: the operations about Memo itself (help, greetings, thanks, the
 * Google connection, the calendar feed, undo), each answered from templates, and the plan actions
 * the planner names by rule. Help, greetings and undo are planned in code (the fast path).
 */
import { z } from "zod";
import type { TextResult } from "./general.js";
import {
  actionsOf,
  defineContract,
  type CapabilityActions,
  type FunctionOf,
  type OperationOf,
} from "./contract.js";

const none = z.object({});

export const metaContract = defineContract("meta", {
  describeCapabilities: {
    args: none,
    reads: true,
    description: "what this Memo can do, naming only the capabilities it runs.",
  },
  greet: { args: none, reads: true, description: "a greeting back." },
  thank: { args: none, reads: true, description: "an answer to thanks." },
  "meta.connect_google": {
    args: none,
    actions: [{ name: "connect_google", hint: '"connect Google"' }],
    description: "the link that connects the user's Google account, or why there is none.",
  },
  "meta.disconnect_google": {
    args: none,
    actions: [{ name: "disconnect_google", hint: '"disconnect Google"' }],
    description: "deletes the user's Google tokens.",
  },
  "meta.calendar_feed": {
    args: none,
    reads: true,
    actions: [
      { name: "calendar_feed", hint: "asking for a link to see Memo's calendar in another calendar app" },
    ],
    description: "the user's private calendar feed link, or why they need none.",
  },
  "meta.undo": {
    args: z.object({
      /** "בטל" quoting one of Memo's messages: its id; only the change that message answered is undone. */
      quoted: z.string().nullish(),
      /** Asked first (messages came between): the turn whose change the user said yes to. */
      turn: z.string().nullish(),
    }),
    description: "takes back the user's latest change.",
  },
});

export type MetaFunction = FunctionOf<typeof metaContract>;
/** One meta operation with its arguments, as the executor switches on it. */
export type MetaOperation = OperationOf<typeof metaContract>;

/** What each operation returns as data: the words to send. */
export type MetaResults = Record<MetaFunction, TextResult>;

/** The meta actions the planner names by rule. */
export const metaActions: CapabilityActions = {
  capability: "meta",
  actions: actionsOf(metaContract, "meta"),
};
