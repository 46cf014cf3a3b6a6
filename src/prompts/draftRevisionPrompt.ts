import { z } from "zod";

/** The revised fields of a draft (forward: the note stands for the body). */
export const RevisedDraftSchema = z.object({
  to: z.array(z.string()),
  cc: z.array(z.string()).nullish(),
  subject: z.string().nullish(),
  body: z.string(),
});

/** System prompt of an email draft's revision as the user asked (LLM node "resolver:gmail"). Static, first, cacheable. */
export const DRAFT_REVISION_PROMPT = `You revise an email draft as the user asks. You get the current draft as JSON and the user's change in their words.
Answer with the whole revised draft: every field, changed or not. Keep what the user did not ask to change word for word. Write in the draft's language unless the user asks otherwise. Recipients are email addresses as given; a person named without an address goes in as the name. Never invent an address.`;
