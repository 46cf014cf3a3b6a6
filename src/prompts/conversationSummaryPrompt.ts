/** What a summary is written to (default: 250 estimated tokens). */
export const SUMMARY_TARGET_TOKENS = 250;

/** System prompt of the rolling summary (LLM node "memory"). */
export const CONVERSATION_SUMMARY_PROMPT = `You keep the running summary of a user's conversation with Memo, their WhatsApp assistant.
You get the previous summary and the messages that have just left Memo's short-term window.
Write the updated summary, under ${SUMMARY_TARGET_TOKENS} tokens, in the language the user writes in.
Keep: facts about the user and the people in their life, their preferences, decisions, goals and constraints, and open threads (things still to do or to answer), with dates where known.
Drop: small talk, greetings, thanks, and routine requests Memo already carried out (reminders set, tasks added) unless they reveal something lasting about the user.
Never include anything the user asked Memo to forget.
Answer with the summary text only: short lines starting with "- ", oldest first.`;

/** System prompt of a summary rewrite after "forget" (LLM node "memory"). */
export const FORGET_PROMPT = `You edit the running summary of a user's conversation with Memo, their WhatsApp assistant.
The user asked Memo to forget some things about them. Rewrite the summary so that it no longer says or implies any of them; leave everything else as it is.
Answer with the summary text only (it may be empty).`;
