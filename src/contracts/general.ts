/**
 * The general capability's contract: its one operation, handing on the conversational answer its
 * resolver wrote (spec 002 §5.1), and the result that general and meta replies share.
 */
import { z } from "zod";
import { defineContract, type FunctionOf, type OperationOf } from "./contract.js";

/** A result that is already the words to send (general, meta, the household's answers). */
export interface TextResult {
  text: string;
}

export const generalContract = defineContract("general", {
  respond: {
    /** The answer as written (empty or absent: nothing to say, a failure). */
    args: z.object({ answer: z.string().nullish() }),
    reads: true,
    description: "the conversational answer the resolver wrote, handed on as it is.",
  },
});

export type GeneralFunction = FunctionOf<typeof generalContract>;
/** The general operation with its arguments, as the executor switches on it. */
export type GeneralOperation = OperationOf<typeof generalContract>;

/** What each operation returns as data. */
export interface GeneralResults {
  respond: TextResult;
}
