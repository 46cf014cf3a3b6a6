// Households (issue 23): nothing of one person reaches another unless it was shared. Random
// households of five people, each with private lists, tasks and notes carrying unique markers and
// with lists of the same names, some lists shared; then random messages from random people (list
// names of others, others' task texts and note words, "@N" and "#N" handles, numbers, replies
// quoting messages sent to someone else, "our tasks", reminders and tasks for members, typed and
// quoted answers to invitations, leaving and inviting again, undo after others' changes). After each
// message: what reached its sender holds no marker they may not see, nothing another person did not
// share changed, nobody joined a household without answering an invitation that reached them from
// someone they had not refused, and no number received more invitations in a day than the limit.
// The seed comes from PROPERTY_SEED, so a failing run replays.
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

/**
 * Everything of `phone` no one else may change, by row: notes, and tasks and lists (with items)
 * not shared with a household (`private`: false for those shared now, which members may change).
 */
async function privateRows(
  h: SchedulerHarness,
  phone: string,
): Promise<Map<string, { row: string; private: boolean }>> {
  const { rows } = await h.db.pool.query<{ key: string; row: unknown; private: boolean }>(
    `SELECT 'notes' AS key, json_agg(n.content ORDER BY n.created_at, n.id) AS row, true AS private
       FROM notes n WHERE n.user_phone = $1
     UNION ALL
     SELECT 'task:' || t.id, json_build_array(t.text, t.completed, t.due_at), t.household_id IS NULL
       FROM tasks t WHERE t.user_phone = $1
     UNION ALL
     SELECT 'list:' || l.id, json_build_array(l.name,
              (SELECT json_agg(json_build_array(i.text, i.checked) ORDER BY i.position, i.id)
                 FROM list_items i WHERE i.list_id = l.id)), l.household_id IS NULL
       FROM lists l WHERE l.user_phone = $1`,
    [phone],
  );
  return new Map(rows.map((r) => [r.key, { row: JSON.stringify(r.row), private: r.private }]));
}

/** The private rows of `before` as they are in `after` (gone: null), whether or not shared since (a household ended). */
function stillAsTheyWere(
  before: Map<string, { row: string; private: boolean }>,
  after: Map<string, { row: string; private: boolean }>,
): Record<string, [string, string | null]> {
  const changed: Record<string, [string, string | null]> = {};
  for (const [key, { row, private: mine }] of before) {
    const now = after.get(key)?.row ?? null;
    if (mine && now !== row) changed[key] = [row, now];
  }
  return changed;
}

/** Each person's household id now (null: none). */
async function householdIds(h: SchedulerHarness): Promise<(string | null)[]> {
  const { rows } = await h.db.pool.query<{ phone: string; household_id: string }>(
    `SELECT phone, household_id FROM household_members`,
  );
  const of = new Map(rows.map((r) => [r.phone, r.household_id]));
  return PHONES.map((phone) => of.get(phone) ?? null);
}

/** The markers of lists shared into the household of each person now (their items and names). */
async function sharedWith(h: SchedulerHarness): Promise<Set<string>[]> {
  const { rows } = await h.db.pool.query<{ reader: string; text: string }>(
    `SELECT r.phone AS reader, l.name || ' ' || COALESCE(string_agg(i.text, ' '), '') AS text
       FROM household_members r
       JOIN lists l ON l.household_id = r.household_id
       JOIN household_members o ON o.phone = l.user_phone AND o.household_id = l.household_id
       LEFT JOIN list_items i ON i.list_id = l.id
      GROUP BY r.phone, l.id, l.name`,
  );
  const seen = PHONES.map(() => new Set<string>());
  for (const row of rows)
    for (const m of row.text.match(MARKER) ?? []) seen[PHONES.indexOf(row.reader)]?.add(m);
  return seen;
}

/** Invitations that reached `phone` (the messages that say "… invites you"). */
const invitationsTo = (h: SchedulerHarness, phone: string) =>
  h.sentTo(phone).filter((m) => m.includes("invites you")).length;

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

    /**
     * The markers person `i` may see: those of lists shared into their household at some moment of
     * the run (read before and after every message, as households change), and their own.
     */
    const everShared = PHONES.map(() => new Set<string>());
    const noteShared = async () => {
      for (const [i, markers] of (await sharedWith(h!)).entries())
        for (const m of markers) everShared[i]!.add(m);
    };
    await noteShared();
    const allowed = (i: number): Set<string> => everShared[i]!;
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
        "undo",
        `add zzmine to ${marker(other, "pantry")} list`,
      ];
    };
    /** Consent: answers typed (or quoting an invitation, anyone's), leaving and inviting again. */
    const consent = (i: number): string[] => {
      const other = rng.pick([...PHONES.keys()].filter((j) => j !== i));
      const invite = `add ${NAMES[other]} ${local(PHONES[other]!)} to my household`;
      return ["accept", "מאשרת", "join", "stop", "leave the household", invite, invite, invite];
    };

    /** The ids of messages Memo sent each person, to quote from someone else's chat. */
    const sentIds = () =>
      h!.graphApi.sent.map((m) => ({ to: m.to.replace(/\D/g, ""), id: m.id })).filter((m) => m.id);
    const before = new Map<number, Map<string, { row: string; private: boolean }>>();
    const typed = PHONES.map(() => new Set<string>());
    const rounds = 160;
    for (let round = 0; round < rounds; round++) {
      const i = rng.int(PHONES.length);
      const text = rng.chance(0.35) ? rng.pick(consent(i)) : rng.pick(messages(i));
      // Quotes of someone else's messages, and of invitations (someone else's, or one's own).
      const quotes = sentIds().filter((m) => m.to !== PHONES[i]);
      const invitations = h.graphApi.sent
        .filter((m) => m.id && JSON.stringify(m.body).includes("invites you"))
        .flatMap((m) => (m.id ? [m.id] : []));
      const answer = ["accept", "מאשרת", "join", "stop"].includes(text);
      const replyTo =
        rng.chance(answer ? 0.5 : 0.1) && invitations.length > 0
          ? rng.pick(invitations)
          : rng.chance(0.3) && quotes.length > 0
            ? rng.pick(quotes).id
            : undefined;
      for (const j of PHONES.keys()) if (j !== i) before.set(j, await privateRows(h, PHONES[j]!));
      const householdsBefore = await householdIds(h);
      await noteShared();

      const replies = await say(i, text, replyTo);
      await noteShared();
      const householdsAfter = await householdIds(h);
      for (const j of PHONES.keys()) {
        const [was, is] = [householdsBefore[j], householdsAfter[j]];
        if (is === null || is === was) continue;
        // Joining is the person's own answer, to an invitation that reached them, from someone they
        // had not refused.
        const said = `round ${round}: ${NAMES[i]} said ${JSON.stringify(text)}; ${NAMES[j]} joined`;
        expect(j, said).toBe(i);
        // A household of one made by one's own invitation is no joining.
        if (!householdsBefore.includes(is ?? null)) continue;
        const { rows } = await h.db.pool.query<{ inviter_phone: string; delivered: boolean }>(
          `SELECT inviter_phone, delivered FROM household_invitations
            WHERE invitee_phone = $1 AND household_id = $2 AND status = 'accepted'
            ORDER BY answered_at DESC LIMIT 1`,
          [PHONES[j], is],
        );
        expect(rows[0]?.delivered, said).toBe(true);
        const refused = await h.db.pool.query(
          `SELECT 1 FROM household_blocks WHERE phone = $1 AND blocked_phone = $2 AND kind = 'invitations'`,
          [PHONES[j], rows[0]!.inviter_phone],
        );
        expect(refused.rows, said).toEqual([]);
      }
      // The run is shorter than a day: no number gets more than 3 invitations, however households change.
      for (const phone of PHONES)
        expect(invitationsTo(h, phone), `round ${round}: to ${phone}`).toBeLessThanOrEqual(3);
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
          stillAsTheyWere(before.get(j)!, await privateRows(h, PHONES[j]!)),
          `round ${round}: ${NAMES[i]} said ${JSON.stringify(text)}`,
        ).toEqual({});
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

describe("consent, however people answer, leave and invite again", () => {
  it(
    `random invitations, typed and quoted answers, refusals and leavings (seed ${SEED})`,
    { timeout: 120_000 },
    async () => {
      const rng = prng(SEED + 2);
      h = await createSchedulerHarness({ db: shared.db });
      const people = PHONES.slice(0, 4);
      for (const [i, phone] of people.entries()) {
        await h.user(phone);
        await h.memo.users.update(phone, { displayName: NAMES[i]! });
      }
      /** The invitations that reached `phone`: their ids (from the buttons Memo sent) and when. */
      const reached = (phone: string) =>
        h!.graphApi.sent
          .filter((m) => m.to.replace(/\D/g, "") === phone)
          .flatMap((m) => {
            const id = /hh:accept:([0-9a-f-]{36})/.exec(JSON.stringify(m.body))?.[1];
            return id ? [{ id, messageId: m.id, at: h!.clock.now() }] : [];
          });
      const deliveredAt = new Map<string, number>();
      const invitedReplies: { phone: string; at: number }[] = [];
      const DAY = 24 * 60 * 60_000;
      for (let round = 0; round < 200; round++) {
        if (round % 16 === 15) h.clock.advance(4 * 60 * 60_000);
        const i = rng.int(people.length);
        const phone = people[i]!;
        const other = rng.pick([...people.keys()].filter((j) => j !== i));
        const roll = rng.next();
        const mine = reached(phone);
        const anyInvitation = h.graphApi.sent.filter(
          (m) => m.id && /hh:accept:/.test(JSON.stringify(m.body)),
        );
        let text: string;
        let replyTo: string | undefined;
        let tapped: string | undefined;
        if (roll < 0.25) text = `add ${NAMES[other]} ${local(people[other]!)} to my household`;
        else if (roll < 0.55) {
          text = rng.pick(["accept", "מאשרת", "join"]);
          // Half quote an invitation: their own, or one sent to someone else.
          if (rng.chance(0.5) && anyInvitation.length > 0) replyTo = rng.pick(anyInvitation).id;
        } else if (roll < 0.63) text = "stop";
        else if (roll < 0.72 && mine.length > 0) {
          // A tap on Accept or Decline of any invitation that reached them, however old.
          const id = rng.pick(mine).id;
          tapped = rng.chance(0.5) ? `hh:accept:${id}` : `hh:decline:${id}`;
          text = tapped.startsWith("hh:accept") ? "Accept" : "Decline";
        } else if (roll < 0.95) text = "leave the household";
        else text = `remove ${NAMES[other]}`;

        const before = await householdIds(h);
        const countBefore = h.sentTo(phone).length;
        if (tapped)
          await h.deliver({
            from: phone,
            id: `wamid.TAP${round}`,
            timestamp: String(Math.floor(h.clock.now() / 1000)),
            type: "interactive",
            interactive: { type: "button_reply", button_reply: { id: tapped, title: text } },
          });
        else await h.deliver(textMessage(phone, text, h.clock.now(), replyTo ? { replyTo } : {}));
        await h.idle();
        const replies = h.sentTo(phone).slice(countBefore);
        const after = await householdIds(h);
        for (const q of people)
          for (const r of reached(q)) if (!deliveredAt.has(r.id)) deliveredAt.set(r.id, h.clock.now());
        if (replies.some((reply) => reply.includes("I've invited")))
          invitedReplies.push({ phone, at: h.clock.now() });
        const said = `round ${round}: ${NAMES[i]} ${tapped ? `tapped ${tapped}` : `said ${JSON.stringify(text)}`}${replyTo ? ` quoting ${replyTo}` : ""} → ${JSON.stringify(replies)}`;

        for (const [j, person] of people.entries()) {
          const [was, is] = [before[j], after[j]];
          if (!is || is === was || !before.includes(is)) continue;
          // Only the person themself joins a household, by their own answer...
          expect(j, `${said}; ${NAMES[j]} joined`).toBe(i);
          const { rows } = await h.db.pool.query<{ id: string; inviter_phone: string }>(
            `SELECT id, inviter_phone FROM household_invitations
            WHERE invitee_phone = $1 AND household_id = $2 AND status = 'accepted'
            ORDER BY answered_at DESC LIMIT 1`,
            [person, is],
          );
          const accepted = rows[0]!;
          // ...to an invitation that reached them (its buttons were sent to them)...
          expect(
            deliveredAt.has(accepted.id) && reached(person).some((r) => r.id === accepted.id),
            said,
          ).toBe(true);
          // ...from someone they had not refused...
          const refused = await h.db.pool.query(
            `SELECT 1 FROM household_blocks WHERE phone = $1 AND blocked_phone = $2 AND kind = 'invitations'`,
            [person, accepted.inviter_phone],
          );
          expect(refused.rows, said).toEqual([]);
          // ...and, when they quoted or tapped one of theirs, that one.
          const quoted =
            reached(person).find((r) => r.messageId === replyTo)?.id ?? tapped?.slice("hh:accept:".length);
          if (quoted) expect(accepted.id, said).toBe(quoted);
        }
        // Limits count people and numbers, whatever happens to households.
        const now = h.clock.now();
        for (const person of people) {
          const today = reached(person).filter((r) => now - deliveredAt.get(r.id)! < DAY);
          expect(new Set(today.map((r) => r.id)).size, `${said}; to ${person}`).toBeLessThanOrEqual(3);
          expect(
            invitedReplies.filter((x) => x.phone === person && now - x.at < DAY).length,
            `${said}; from ${person}`,
          ).toBeLessThanOrEqual(5);
        }
      }
    },
  );
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
