// Households (issue 23): nothing of one person reaches another unless it was shared. Random
// households of five people, each with private lists, tasks and notes carrying unique markers and
// with lists of the same names, some lists shared; then random messages from random people (list
// names of others, others' task texts and note words, "@N" and "#N" handles, numbers, replies
// quoting messages sent to someone else, "our tasks", reminders and tasks for members). After each
// message: what reached its sender holds no marker they may not see, and nothing another person
// did not share changed. The seed comes from PROPERTY_SEED, so a failing run replays.
import { describe, expect, it } from "vitest";
import { HouseholdRepository } from "../../src/db/repositories/householdRepository.js";
import { PgListRepository } from "../../src/db/repositories/listRepository.js";
import { prng } from "../support/random.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage } from "../support/whatsappHarness.js";

const SEED = Number(process.env.PROPERTY_SEED ?? 20261126);
const NAMES = ["Dana", "Yossi", "Rina", "Avi", "Noa"];
const PHONES = NAMES.map((_, i) => `97250111000${i}`);
/** Dialled as a local number from an Israeli phone, as a person types it. */
const local = (phone: string) => `0${phone.slice(3)}`;
/** A marker only the person `i` wrote; `k` tells their things apart. */
const marker = (i: number, k: string) => `zq${"abcde"[i]}${k}`;
/** Whose a marker is. */
const ownerOf = (m: string) => "abcde".indexOf(m[2]!);
const MARKER = /zq[a-e][a-z]+/g;

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** Everything of `phone` no one else may change: notes, tasks not shared, lists not shared, with items. */
async function privateRows(h: SchedulerHarness, phone: string): Promise<string> {
  const { rows } = await h.db.pool.query<{ rows: unknown }>(
    `SELECT json_build_array(
       (SELECT json_agg(n.content ORDER BY n.created_at, n.id) FROM notes n WHERE n.user_phone = $1),
       (SELECT json_agg(json_build_array(t.text, t.completed, t.due_at) ORDER BY t.seq)
          FROM tasks t WHERE t.user_phone = $1 AND t.household_id IS NULL),
       (SELECT json_agg(json_build_array(l.name,
               (SELECT json_agg(json_build_array(i.text, i.checked) ORDER BY i.position, i.id)
                  FROM list_items i WHERE i.list_id = l.id)) ORDER BY l.seq)
          FROM lists l WHERE l.user_phone = $1 AND l.household_id IS NULL)) AS rows`,
    [phone],
  );
  return JSON.stringify(rows[0]?.rows);
}

describe("no cross-person reads or writes", () => {
  it(`random households, ids and messages (seed ${SEED})`, { timeout: 120_000 }, async () => {
    const rng = prng(SEED);
    h = await createSchedulerHarness({ db: shared.db });
    const say = async (i: number, text: string, replyTo?: string) => {
      const before = h!.sentTo(PHONES[i]!).length;
      await h!.deliver(textMessage(PHONES[i]!, text, h!.clock.now(), replyTo ? { replyTo } : {}));
      await h!.idle();
      return h!.sentTo(PHONES[i]!).slice(before);
    };
    for (const [i, phone] of PHONES.entries()) {
      await h.user(phone);
      await h.memo.users.update(phone, { displayName: NAMES[i]! });
    }

    // Households: the first person invites one or two others; the rest pair up or stay alone.
    const order = [...PHONES.keys()].sort(() => rng.next() - 0.5);
    const householdOf = new Map<number, number>();
    const groups = [order.slice(0, 2 + rng.int(2)), order.slice(3 + rng.int(1))].filter((g) => g.length > 1);
    for (const [g, group] of groups.entries()) {
      const [host, ...guests] = group;
      householdOf.set(host!, g);
      for (const guest of guests) {
        await say(host!, `add ${NAMES[guest]} ${local(PHONES[guest]!)} to my household`);
        expect(await say(guest, "accept")).toEqual([expect.stringContaining("You've joined")]);
        householdOf.set(guest, g);
      }
    }
    const together = (a: number, b: number) =>
      householdOf.has(a) && householdOf.get(a) === householdOf.get(b);

    // Everyone: a "shopping" list (the same name), a secret list, tasks and notes with their markers.
    const sharedMarkers = new Map<number, Set<string>>();
    for (const i of PHONES.keys()) {
      await say(i, `create shopping list`);
      await say(i, `add ${marker(i, "milk")}, ${marker(i, "eggs")} to shopping list`);
      await say(i, `create ${marker(i, "secretlist")} list`);
      await say(i, `add ${marker(i, "diary")} to ${marker(i, "secretlist")} list`);
      await say(i, `create ${marker(i, "pantry")} list`);
      await say(i, `add ${marker(i, "rice")} to ${marker(i, "pantry")} list`);
      await say(i, `add task ${marker(i, "task")}`);
      await say(i, `remind me tomorrow at 9 to ${marker(i, "remind")}`);
      await say(i, `note: the safe code is ${marker(i, "note")}`);
    }
    for (const i of PHONES.keys()) {
      // Those in a household share their pantry list with it, and half of them their shopping list.
      if (!householdOf.has(i)) continue;
      const markers = new Set([marker(i, "pantry"), marker(i, "rice")]);
      expect(await say(i, `share the ${marker(i, "pantry")} list with the household`)).toEqual([
        expect.stringContaining("is now shared with your household"),
      ]);
      if (rng.chance(0.5)) {
        expect(await say(i, "share the shopping list with the household")).toEqual([
          expect.stringContaining("is now shared with your household"),
        ]);
        for (const k of ["milk", "eggs"]) markers.add(marker(i, k));
      }
      sharedMarkers.set(i, markers);
    }

    /** The markers person `i` may see: their own, and those of lists co-members shared. */
    const allowed = (i: number): Set<string> => {
      const ok = new Set<string>();
      for (const [owner, markers] of sharedMarkers)
        if (owner === i || together(owner, i)) for (const m of markers) ok.add(m);
      return ok;
    };
    const everyMarker = PHONES.flatMap((_, i) =>
      ["milk", "eggs", "secretlist", "diary", "pantry", "rice", "task", "remind", "note"].map((k) =>
        marker(i, k),
      ),
    );

    const messages = (i: number): string[] => {
      const other = rng.pick([...PHONES.keys()].filter((j) => j !== i));
      const theirs = rng.pick(everyMarker.filter((m) => ownerOf(m) !== i));
      const name = NAMES[other]!;
      return [
        `show ${theirs} list`,
        `show shopping list`,
        `add zznew to ${theirs} list`,
        `add zznew to shopping list`,
        `clear ${theirs} list`,
        `done ${theirs}`,
        `delete task ${theirs}`,
        `search notes for ${theirs}`,
        `what is ${theirs}?`,
        `forget that the safe code is ${theirs}`,
        `done @${1 + rng.int(3)}`,
        `delete task @${1 + rng.int(3)}`,
        `done ${1 + rng.int(4)}`,
        `delete task ${1 + rng.int(4)}`,
        `show #${1 + rng.int(3)}`,
        "my lists",
        "my lists",
        `show ${marker(other, "pantry")} list`,
        `add zznew to ${marker(other, "pantry")} list`,
        "my tasks",
        "our tasks",
        "my notes",
        "undo",
        `tell me ${name}'s notes`,
        `delete all of ${name}'s tasks`,
        `${name}: zzchore`,
        `remind ${name} tomorrow at 17:00 to zzerrand`,
        `remove ${theirs}`,
      ];
    };

    /** The ids of messages Memo sent each person, to quote from someone else's chat. */
    const sentIds = () =>
      h!.graphApi.sent.map((m) => ({ to: m.to.replace(/\D/g, ""), id: m.id })).filter((m) => m.id);
    const before = new Map<number, string>();
    const typed = PHONES.map(() => new Set<string>());
    const rounds = 140;
    for (let round = 0; round < rounds; round++) {
      const i = rng.int(PHONES.length);
      const text = rng.pick(messages(i));
      const quotes = sentIds().filter((m) => m.to !== PHONES[i]);
      const replyTo = rng.chance(0.3) && quotes.length > 0 ? rng.pick(quotes).id : undefined;
      for (const j of PHONES.keys()) if (j !== i) before.set(j, await privateRows(h, PHONES[j]!));

      const replies = await say(i, text, replyTo);
      // Markers the sender ever typed are their own words ("add x to zqenote list" makes their own
      // list of that name); any other must be one they may see.
      for (const m of text.match(MARKER) ?? []) typed[i]!.add(m);
      const seen = allowed(i);
      const leaked = replies
        .flatMap((reply) => reply.match(MARKER) ?? [])
        .filter((m) => ownerOf(m) !== i && !typed[i]!.has(m) && !seen.has(m));
      expect(
        leaked,
        `round ${round}: ${NAMES[i]} said ${JSON.stringify(text)} → ${JSON.stringify(replies)}`,
      ).toEqual([]);
      for (const j of PHONES.keys()) {
        if (j === i) continue;
        expect(
          await privateRows(h, PHONES[j]!),
          `round ${round}: ${NAMES[i]} said ${JSON.stringify(text)}`,
        ).toBe(before.get(j));
      }
      // Whatever the scheduler sends meanwhile (notices, rings) also holds only what its reader may see.
      if (round % 20 === 19) {
        const counts = PHONES.map((p) => h!.sentTo(p).length);
        h.clock.advance(20 * 60_000);
        await h.pass();
        await h.idle();
        for (const [j, phone] of PHONES.entries()) {
          const fresh = h.sentTo(phone).slice(counts[j]);
          const bad = fresh
            .flatMap((m) => m.match(MARKER) ?? [])
            .filter((m) => ownerOf(m) !== j && !typed[j]!.has(m) && !allowed(j).has(m));
          expect(bad, `scheduler to ${NAMES[j]}: ${JSON.stringify(fresh)}`).toEqual([]);
        }
      }
    }
  });
});

describe("the list repository's guard, by id", () => {
  it(`random people asking by another's list and item ids see and change only what they may (seed ${SEED})`, async () => {
    const rng = prng(SEED + 1);
    h = await createSchedulerHarness({ db: shared.db });
    const lists = new PgListRepository(h.db.pool);
    const households = new HouseholdRepository(h.db.pool);
    for (const phone of PHONES) await h.user(phone);
    // Two households (0,1,2) and (3,4); every list of someone in one is shared with it, or not.
    const group = (i: number) => (i < 3 ? 0 : 1);
    const ids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
    for (const [i, phone] of PHONES.entries()) {
      if (i === 0 || i === 3) await households.create(ids[group(i)]!, phone, NAMES[i]!, h.clock.now());
      else await households.addMember(ids[group(i)]!, phone, NAMES[i]!, h.clock.now());
    }
    const made: { owner: number; id: string; shared: boolean }[] = [];
    for (const [i, phone] of PHONES.entries()) {
      for (const k of ["a", "b", "c"]) {
        const shared = rng.chance(0.5);
        const list = await lists.create(phone, `seed:${k}`, {
          name: `${NAMES[i]} ${k}`,
          items: ["one", "two", "three"],
          forHousehold: shared,
        });
        made.push({ owner: i, id: list.id, shared });
      }
    }
    const mayUse = (who: number, list: (typeof made)[number]) =>
      list.owner === who || (list.shared && group(list.owner) === group(who));
    const itemsOf = async (id: string) =>
      (
        await h!.db.pool.query<{ id: string }>(
          "SELECT id FROM list_items WHERE list_id = $1 ORDER BY position",
          [id],
        )
      ).rows.map((r) => r.id);

    for (let round = 0; round < 150; round++) {
      const who = rng.int(PHONES.length);
      const phone = PHONES[who]!;
      const list = rng.pick(made);
      const ok = mayUse(who, list);
      const before = await itemsOf(list.id);
      const item = before.length > 0 ? rng.pick(before) : "00000000-0000-4000-8000-00000000ffff";
      const what = `round ${round}: ${NAMES[who]} on ${NAMES[list.owner]}'s ${list.shared ? "shared" : "private"} list`;
      switch (rng.int(6)) {
        case 0:
          expect(!!(await lists.get(phone, list.id)), what).toBe(ok);
          break;
        case 1:
          expect(
            (await lists.list(phone)).some((l) => l.id === list.id),
            what,
          ).toBe(ok);
          break;
        case 2:
          expect(!!(await lists.addItems(phone, list.id, ["added"], h.clock.now())), what).toBe(ok);
          expect((await itemsOf(list.id)).length, what).toBe(before.length + (ok ? 1 : 0));
          break;
        case 3:
          expect(!!(await lists.toggleItem(phone, item)), what).toBe(ok && before.length > 0);
          break;
        case 4:
          expect((await lists.deleteItems(phone, [item])).length, what).toBe(ok && before.length > 0 ? 1 : 0);
          expect((await itemsOf(list.id)).length, what).toBe(
            before.length - (ok && before.length > 0 ? 1 : 0),
          );
          break;
        default:
          // Renaming, deleting and sharing are the owner's alone.
          expect(!!(await lists.update(phone, list.id, { name: `${NAMES[list.owner]} x` })), what).toBe(
            list.owner === who,
          );
          expect(!!(await lists.share(phone, list.id, list.shared)), what).toBe(list.owner === who);
      }
    }
  });
});
