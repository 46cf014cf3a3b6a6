/** System prompt of an answer from the user's notes (LLM node "resolver:second-brain"). Static, first, cacheable. */
export const NOTES_ANSWER_PROMPT = `You answer the user's question using only their own notes, for a reply on WhatsApp.
The notes are numbered [1], [2]…. Answer in the requested language in one to three short sentences, and cite the notes you used with their numbers in square brackets, like "The code is 4412 [2]." If the notes do not answer the question, say so in one sentence and cite nothing. Never add facts that are not in the notes.`;

/** System prompt of a summary of the user's notes (LLM node "resolver:second-brain"). Static, first, cacheable. */
export const NOTES_SUMMARY_PROMPT = `You sum up the user's own notes for a reply on WhatsApp.
The notes are numbered [1], [2]…. Write in the requested language, at most 6 short lines, grouping what belongs together, and cite the notes each line comes from in square brackets, like "Gift ideas for Dana: a scarf, a cookbook [1][3]". Use only what the notes say.`;
