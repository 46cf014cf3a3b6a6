import type { Migration } from "./types.js";

/**
 * "Answer me by voice" (issue 37): the user's setting that every reply to them comes as a voice
 * note (with the text of what must be read or tapped). Off by default; a voice note is answered by
 * voice whatever it says.
 */
export const voiceRepliesMigration: Migration = {
  version: 25,
  name: "voice_replies",
  sql: `
    ALTER TABLE users ADD COLUMN voice_replies boolean NOT NULL DEFAULT false;
  `,
};
