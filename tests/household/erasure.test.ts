// Erasure in households (issue 31, finding 4): after a long conversation of two households
// (shared lists both ways, tasks and reminders given both ways, list notices, undo entries in every
// journal), erasing one person leaves their number nowhere: no table, column or JSON value holds it,
// as digits, as people and Memo write it, or base64-encoded inside a message id; and no later undo
// by anyone writes it back. Only the refusals and today's invitation counts outlive the erasure,
// under a keyed hash of the number.
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { eraseUserData } from "../../src/db/repositories/userDataRepository.js";
import { erasedPhoneKey } from "../../src/utils/phone.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { buttonsOfLast, DANA, received, say, YOSSI } from "./talk.js";

const VERED = "972537654321";
const MOTI = "972548887766";
const RINA = "972541112223";
const MINUTE = 60_000;

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** The number's national significant digits: every written form of it holds them in order. */
const NATIONAL = VERED.slice(3);

/** Whether `text` holds the number: its digits with any separators, or base64 that decodes to them. */
function holdsNumber(text: string): boolean {
  if (text.replace(/[\s\-.()\u2066-\u2069]/g, "").includes(NATIONAL)) return true;
  for (const run of text.match(/[A-Za-z0-9+/_-]{10,}={0,2}/g) ?? [])
    for (let phase = 0; phase < 4; phase++)
      if (Buffer.from(run.slice(phase), "base64").toString("latin1").includes(NATIONAL)) return true;
  return false;
}

/** Every table.column (with the row's text) that holds the number, whatever its type. */
async function whereIsTheNumber(pool: pg.Pool): Promise<string[]> {
  const { rows: columns } = await pool.query<{ table: string; column: string; type: string; udt: string }>(
    `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.udt_name AS udt
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { table, column, type, udt } of columns) {
    // Embeddings are numbers a model made, not text anyone wrote.
    if (type === "USER-DEFINED" && udt !== "tsvector") continue;
    const read = type === "bytea" ? `encode("${column}", 'escape')` : `"${column}"::text`;
    const { rows } = await pool.query<{ v: string | null }>(`SELECT ${read} AS v FROM "${table}"`);
    for (const { v } of rows)
      if (v !== null && holdsNumber(v)) found.push(`${table}.${column}: ${v.slice(0, 200)}`);
  }
  return found;
}

describe("erasing a person of two households", () => {
  it(
    "leaves their number in no table, column or JSON value, before and after every other member's undo",
    { timeout: 60_000 },
    async () => {
      h = await createSchedulerHarness({ db: shared.db });
      for (const [phone, name] of [
        [YOSSI, "Yossi"],
        [VERED, "Vered"],
        [MOTI, "Moti"],
        [RINA, "Rina"],
        [DANA, "Dana"],
      ] as const) {
        await h.user(phone, { language: "en" });
        await h.memo.users.update(phone, { displayName: name });
      }
      // Moti's household: Moti and Rina. He invites Vered too; she refuses (no more from him).
      await say(h, MOTI, "add Rina 054-111-2223 to my household");
      await say(h, RINA, "accept");
      await say(h, MOTI, "invite Vered +972 53-765-4321 to our household");
      await say(h, VERED, "stop");
      // Yossi's household: Yossi, Vered and Dana.
      await say(h, YOSSI, "add Vered 053-7654321 to my household");
      await say(h, VERED, "accept");
      await say(h, YOSSI, "add Dana 050-1234567 to my household");
      await say(h, DANA, "accept");
      await say(h, YOSSI, "create a shopping list for the household");
      await say(h, YOSSI, "turn on list notices");
      await say(h, VERED, "add milk, bread to shopping list");
      await say(h, VERED, "create a camping list for the household");
      await say(h, YOSSI, "add tent to camping list");
      await say(h, VERED, "task for Yossi: fix the shelf");
      await say(h, VERED, "remind Yossi at 17:00 to call the bank");
      await say(h, YOSSI, "task for Vered: buy stamps");
      await say(h, VERED, "task for Dana: water the plants");
      await say(h, YOSSI, "note: Vered's number is 053-765-4321");
      h.clock.advance(16 * MINUTE);
      await received(h, YOSSI, () => h!.pass());
      // Each leaves an undo entry that copies rows naming Vered: Yossi clears the items she added.
      await say(h, YOSSI, "clear shopping list");
      // Dana deletes the task Vered gave her: her undo journal holds a copy naming Vered.
      await say(h, DANA, "delete task water the plants");
      await say(h, MOTI, "create list errands");
      await say(h, RINA, "add soap to errands list");
      // A question left open in Moti's chat ("morning or afternoon?"): its paused turn holds his
      // recent messages, her number among them.
      await say(h, MOTI, "remind me tomorrow at 5 to call Vered");
      expect(buttonsOfLast(h, MOTI).length).toBeGreaterThan(0);
      const paused = () =>
        h!.db.pool.query(`SELECT 1 FROM checkpoints WHERE thread_id = $1`, [MOTI]).then((r) => r.rows.length);
      expect(await paused()).toBeGreaterThan(0);

      const before = await whereIsTheNumber(h.db.pool);
      expect(before.length).toBeGreaterThan(10);
      expect(before.some((place) => place.startsWith("checkpoint"))).toBe(true);

      await eraseUserData(h.db.pool, VERED);
      expect(await whereIsTheNumber(h.db.pool)).toEqual([]);
      // Moti's paused question named her: it is dropped whole (serialized state cannot be edited).
      expect(await paused()).toBe(0);
      // Her refusal of Moti's invitations outlives her, under the keyed hash only.
      const { rows: kept } = await h.db.pool.query(
        `SELECT 1 FROM household_blocks WHERE phone = $1 AND blocked_phone = $2`,
        [erasedPhoneKey(VERED), MOTI],
      );
      expect(kept).toHaveLength(1);

      // Every other member's undo: nothing writes her number back.
      for (const phone of [YOSSI, MOTI, RINA, DANA]) {
        // Other messages came between: undo names the change and asks first.
        const asked = (await say(h, phone, "undo")).join("\n");
        if (asked.includes("Undo it?")) await say(h, phone, "yes");
        expect(await whereIsTheNumber(h.db.pool), phone).toEqual([]);
      }
      // Yossi's undo put back the items she added, no longer naming her; his household goes on with Dana.
      expect((await say(h, YOSSI, "show shopping list"))[0]).toBe(
        "*shopping* (shared with your household)\n1. ☐ milk\n2. ☐ bread",
      );
      expect(await say(h, YOSSI, "my household")).toEqual(["🏠 Your household: you, Dana."]);
      // Dana's undo brought back the task Vered gave her as her own: no longer from anyone, nor the household's.
      const { rows: given } = await h.db.pool.query<{
        household_id: string | null;
        assigned_by_phone: string | null;
      }>(
        `SELECT household_id, assigned_by_phone FROM tasks WHERE user_phone = $1 AND text = 'water the plants'`,
        [DANA],
      );
      expect(given).toEqual([{ household_id: null, assigned_by_phone: null }]);
      expect((await say(h, YOSSI, "our tasks")).join("\n")).not.toContain("water the plants");
      expect(await whereIsTheNumber(h.db.pool)).toEqual([]);
    },
  );
});
