import type { Migration } from "./types.js";

/**
 * When a remembered fact is true (spec 004 §5 "Temporal Validity" and "Relationship Graphs", issue 35):
 * - `valid_from` / `valid_until`: the fact holds from `valid_from` until `valid_until` (open when
 *   NULL). Existing facts hold from when they were stored. A newer fact about the same thing closes
 *   the older one by setting its `valid_until`; nothing is deleted, so "where did I live in March?"
 *   can still be answered. `valid_from_precision` says how finely the start was said ("last
 *   week": a week), so replies never claim a day the user did not name.
 * - `subject` / `attribute`: what the fact is about, when known ("user" + "residence" for "Lives
 *   in Haifa", "sister" + "residence" for "User's sister lives in Haifa"): two facts close each
 *   other only when both match.
 * - `relationships`: spec 004's MemoryRelationship list (`supersedes`, `contradicts`,
 *   `related_to`), each {targetId, type, strength, createdAt}.
 * - `people`: the people the fact speaks of, folded for matching ("sister", "dana"), so a question
 *   about Dana finds what is linked to her.
 */
export const memoryValidityMigration: Migration = {
  version: 18,
  name: "memory_validity",
  sql: `
    ALTER TABLE memories
      ADD COLUMN valid_from timestamptz,
      ADD COLUMN valid_until timestamptz,
      ADD COLUMN valid_from_precision text NOT NULL DEFAULT 'instant'
        CHECK (valid_from_precision IN ('instant', 'day', 'week', 'month', 'year')),
      ADD COLUMN subject text CHECK (length(subject) <= 100),
      ADD COLUMN attribute text CHECK (length(attribute) <= 100),
      ADD COLUMN relationships jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN people text[] NOT NULL DEFAULT '{}';
    UPDATE memories SET valid_from = created_at;
    ALTER TABLE memories ALTER COLUMN valid_from SET NOT NULL, ALTER COLUMN valid_from SET DEFAULT now();
    CREATE INDEX memories_subject ON memories (user_phone, subject, attribute) WHERE subject IS NOT NULL;
    CREATE INDEX memories_people ON memories USING gin (people);
  `,
};
