import { randomUUID } from "node:crypto";
import type { Household, HouseholdMember } from "../../db/repositories/householdRepository.js";
import { t, type Language } from "../../messages/index.js";
import { recognizeCommand } from "../../nlu/commands.js";
import type { User } from "../../types/index.js";
import type { TaskList } from "../../types/tasks.js";
import { literalOf } from "../../utils/fuzzy.js";
import { quotedInline } from "../../utils/quotedText.js";
import { humanTime } from "../../utils/timeContext.js";
import { scheduleFields, scheduleTask } from "../tasks/taskTimes.js";
import { tooLongReply } from "../tasks/limits.js";
import { invisibleNameReply } from "../tasks/visibleNames.js";
import { inQuietHours } from "../reminder/ringPlan.js";
import { householdNotice } from "../reminder/householdNotices.js";
import {
  DAY_MS,
  DEFAULT_HOUSEHOLD_SETTINGS,
  memberNamed,
  othersOf,
  runChange,
  unchanged,
  type HouseholdReply,
  type HouseholdRepositories,
  type HouseholdServiceDeps,
  type HouseholdSettings,
  type Outcome,
} from "./householdChange.js";

/** Words around a list's name that are not the name ("the shopping list", "רשימת קניות"). */
const LIST_WORDS = /^(?:the |my |our |ה)|(?: list| רשימה)$|^(?:רשימת |רשימה |הרשימה )/gu;

/** A list name as said, without "the … list" / "רשימת …", for matching. */
function listKey(name: string): string {
  let key = literalOf(name);
  for (let i = 0; i < 3; i++) key = key.replace(LIST_WORDS, "").trim();
  return key;
}

/** A bare "Dana: …" longer than this is not asked about: people write notes that way. */
const GIVE_ASK_MAX = 200;

/**
 * What a bare "Dana: call the plumber" is: a task to ask about giving (the member and the text),
 * or a refusal of its words.
 */
type GiveQuestion = { memberPhone: string; name: string; text: string } | { refused: string };

/**
 * What a household shares (docs/HOUSEHOLD.md): lists shared with it, tasks and one-time reminders
 * one member gives another, who may refuse them, the batched notice of shared-list changes, and
 * "keep a copy" after leaving. Each reply is the asking person's; every message to another member
 * goes through the scheduler's delivery ledger, in the same transaction as the change it tells of.
 */
export class HouseholdSharing {
  private readonly newId: () => string;
  private readonly settings: HouseholdSettings;

  constructor(private readonly deps: HouseholdServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.settings = { ...DEFAULT_HOUSEHOLD_SETTINGS, ...deps.settings };
  }

  /** Invitations made at or before this instant are expired. */
  private openSince(): number {
    return this.deps.clock() - this.settings.invitationDays * DAY_MS;
  }

  /**
   * "share the shopping list with Dana" (`withName` null: "with the household"). Null when the words
   * neither say "list" nor name one of the person's lists.
   */
  async share(
    user: User,
    listWords: string,
    withName: string | null,
    saidList: boolean,
    language: Language,
  ): Promise<HouseholdReply | null> {
    // "share my calendar with the family" names no list: the rest of Memo reads it.
    if (
      !saidList &&
      typeof (await findList(this.deps.storage.repositories.lists.list(user.phone), listWords, language)) ===
        "string"
    )
      return null;
    return this.change(async ({ households, lists }, now) => {
      const household = await households.householdOf(user.phone);
      const others = othersOf(household, user.phone);
      if (!household || others.length === 0)
        return { reply: await alone(households, household, this.openSince(), language) };
      if (withName !== null && !memberNamed(others, withName))
        return { reply: notMember(withName, others, language) };
      const found = await findList(lists.list(user.phone), listWords, language);
      if (typeof found === "string") return { reply: found };
      const names = others.map((m) => m.name).join(", ");
      if (found.owner)
        return { reply: t(language, "household.theirList", { list: found.name, owner: found.owner }) };
      if (found.shared) return { reply: t(language, "household.alreadyShared", { list: found.name, names }) };
      await lists.share(user.phone, found.id, true);
      const me = household.members.find((m) => m.phone === user.phone)!;
      return {
        reply: t(language, "household.sharedList", { list: found.name, names }),
        changed: true,
        tell: sharedNotices(others, me.name, found, now),
      };
    });
  }

  /** "stop sharing the shopping list". */
  async unshare(user: User, listWords: string, language: Language): Promise<HouseholdReply> {
    return this.change(async ({ lists }) => {
      const found = await findList(lists.list(user.phone), listWords, language);
      if (typeof found === "string") return { reply: found };
      if (found.owner)
        return { reply: t(language, "household.theirList", { list: found.name, owner: found.owner }) };
      if (!found.shared) return { reply: t(language, "household.notShared", { list: found.name }) };
      await lists.share(user.phone, found.id, false);
      return { reply: t(language, "household.unshared", { list: found.name }), changed: true };
    });
  }

  /** "create a shopping list for the household". */
  async newSharedList(
    user: User,
    name: string,
    messageId: string,
    language: Language,
  ): Promise<HouseholdReply> {
    const refused = badName("list", name, language);
    if (refused) return unchanged(refused);
    return this.change(async ({ households, lists }, now) => {
      const household = await households.householdOf(user.phone);
      const others = othersOf(household, user.phone);
      if (!household || others.length === 0)
        return { reply: await alone(households, household, this.openSince(), language) };
      const taken = (await lists.list(user.phone)).find((l) => listKey(l.name) === listKey(name));
      if (taken) return { reply: t(language, "household.listTaken", { list: taken.name }) };
      const list = await lists.create(user.phone, `household:${messageId}`, { name, forHousehold: true });
      const me = household.members.find((m) => m.phone === user.phone)!;
      return {
        reply: t(language, "household.newSharedList", {
          list: list.name,
          names: others.map((m) => m.name).join(", "),
        }),
        changed: true,
        tell: sharedNotices(others, me.name, list, now),
      };
    });
  }

  /** "our tasks": the open tasks shared with the household, with who holds each. */
  async ourTasks(user: User, language: Language): Promise<HouseholdReply> {
    const { households } = this.deps.storage.repositories;
    const tasks = await households.sharedTasks(user.phone);
    if (tasks.length === 0) return unchanged(t(language, "household.noOurTasks"));
    const now = this.deps.clock();
    const lines = [
      t(language, "household.ourTasks"),
      ...tasks.map((task) => {
        const holder = task.holder ?? t(language, "household.you");
        const when = task.dueAt ? `, ${humanTime(task.dueAt, now, user.timeZone, language)}` : "";
        const from = task.from ? ` (${t(language, "household.taskFrom", { name: task.from })})` : "";
        return `• ${quotedInline(task.text)} — ${quotedInline(holder)}${when}${from}`;
      }),
    ];
    return unchanged(lines.join("\n"));
  }

  /**
   * "task for Dana: call the plumber" gives Dana a task (she is told). Null when the words before
   * the colon name no member nor anyone invited: the message goes on to the rest of Memo.
   */
  async assign(
    user: User,
    target: string,
    text: string,
    messageId: string,
    language: Language,
  ): Promise<HouseholdReply | null> {
    const { households } = this.deps.storage.repositories;
    const household = await households.householdOf(user.phone);
    const member = memberNamed(othersOf(household, user.phone), target);
    if (!member || !household) return this.notYet(household, target, language);
    const refused = badName("task", text, language);
    if (refused) return unchanged(refused);
    return this.give(user, member.phone, text, messageId, language);
  }

  /**
   * A bare "Dana: call the plumber" of `phone`: the task to ask about giving (asked through the
   * graph's question plane, people also write notes that way), a refusal of its words, or null
   * when the words before the colon name no member (the rest of Memo reads the message).
   */
  async giveQuestion(
    phone: string,
    target: string,
    text: string,
    language: Language,
  ): Promise<GiveQuestion | null> {
    const household = await this.deps.storage.repositories.households.householdOf(phone);
    const member = memberNamed(othersOf(household, phone), target);
    if (!member) return null;
    const refused = badName("task", text, language);
    if (refused) return { refused };
    if (text.length > GIVE_ASK_MAX)
      return { refused: t(language, "household.giveExplicit", { name: member.name }) };
    return { memberPhone: member.phone, name: member.name, text };
  }

  /**
   * Gives the member with this phone the task `text`, while they are in the giver's household,
   * within the day's limit of tasks from one member to another. `operationId` keeps it once.
   */
  async give(
    user: User,
    phone: string,
    text: string,
    operationId: string,
    language: Language,
  ): Promise<HouseholdReply> {
    return this.change(async (repositories, now) => {
      const { households, tasks } = repositories;
      const household = await households.householdOf(user.phone);
      const member = othersOf(household, user.phone).find((m) => m.phone === phone);
      if (!household || !member)
        return { reply: await alone(households, household, this.openSince(), language) };
      const refusal = await this.refusesTask(repositories, user, member, now, language);
      if (refusal) return { reply: refusal };
      const task = await tasks.create(member.phone, `household:${user.phone}:${operationId}`, {
        text,
        timeZone: member.timeZone ?? user.timeZone,
        assignedByPhone: user.phone,
        householdId: household.id,
      });
      await this.logTask(repositories, user, member, now);
      const me = household.members.find((m) => m.phone === user.phone)!;
      return {
        reply: t(language, "household.assigned", { name: member.name, text }),
        changed: true,
        tell: [
          householdNotice(member, `household:task:${task.id}`, now, { notice: "task", who: me.name, text }),
        ],
      };
    });
  }

  /** Why `member` cannot be given a task or reminder by `user` now (a refusal, the day's limit); null when they can. */
  private async refusesTask(
    { households }: HouseholdRepositories,
    user: User,
    member: HouseholdMember,
    now: number,
    language: Language,
  ): Promise<string | null> {
    if (await households.blocks(member.phone, user.phone, "reminders"))
      return t(language, "household.remindBlocked", { name: member.name });
    const given = await households.givenSince(user.phone, member.phone, now - DAY_MS);
    if (given >= this.settings.tasksPerDay)
      return t(language, "household.taskLimit", { name: member.name, count: given });
    return null;
  }

  /** Counts a task or reminder given toward the day's limit (a row no deletion takes back). */
  private async logTask(
    { households }: HouseholdRepositories,
    user: User,
    member: HouseholdMember,
    now: number,
  ) {
    await households.log(
      { from: user.phone, to: member.phone, kind: "task", delivered: true, atMs: now },
      now - DAY_MS,
    );
  }

  /**
   * "Dana hasn't accepted your invitation yet" when `words` (or, `atStart`, their beginning) name
   * someone the household invited who has not joined; null otherwise.
   */
  private async notYet(
    household: Household | null,
    words: string,
    language: Language,
    atStart = false,
  ): Promise<HouseholdReply | null> {
    if (!household) return null;
    const pending = await this.deps.storage.repositories.households.pendingInvitees(
      household.id,
      this.openSince(),
    );
    const named = atStart
      ? pending.find((p) => nameAtStart(p.name, words) !== null)
      : pending.find((p) => literalOf(p.name) === literalOf(words));
    return named ? unchanged(t(language, "household.notYet", { name: named.name })) : null;
  }

  /**
   * "remind Dana at 17:00 to pick up the kids": a one-time reminder in Dana's tasks, at 17:00 in
   * her zone, that rings "from Yossi" with Done / Snooze; the giver is told when it is done. Null
   * when the words after "remind" do not start with a member's name (the rest of Memo reads them).
   */
  async remind(
    user: User,
    rest: string,
    hebrew: boolean,
    messageId: string,
    language: Language,
  ): Promise<HouseholdReply | null> {
    const household = await this.deps.storage.repositories.households.householdOf(user.phone);
    const found = household ? memberAtStart(othersOf(household, user.phone), rest) : null;
    if (!household || !found) return this.notYet(household, rest, language, true);
    const { member, after } = found;
    const now = this.deps.clock();
    const zone = member.timeZone ?? user.timeZone;
    // The same reading as "remind me …", in the zone of the one reminded (D6: time in code).
    const command = recognizeCommand(`${hebrew ? "תזכיר לי" : "remind me"} ${after}`, now, zone);
    const args = command?.functionName === "tasks.create" && !command.timeQuestion ? command.args : null;
    if (args?.reminderRecurrence)
      return unchanged(t(language, "household.remindOnce", { name: member.name }));
    const text = typeof args?.text === "string" ? args.text : null;
    const scheduled =
      args && text && args.dueDate ? scheduleTask(args, { nowMs: now, timeZone: zone }) : null;
    if (!scheduled?.ok || !text || !scheduled.schedule.nextFireAt)
      return unchanged(t(language, "household.remindHow", { name: member.name }));
    const refused = badName("task", text, language);
    if (refused) return unchanged(refused);
    const schedule = scheduled.schedule;
    return this.change(async (repositories) => {
      const { tasks } = repositories;
      const refusal = await this.refusesTask(repositories, user, member, now, language);
      if (refusal) return { reply: refusal };
      await tasks.create(member.phone, `household:${user.phone}:${messageId}`, {
        text,
        timeZone: zone,
        ...scheduleFields(schedule),
        assignedByPhone: user.phone,
        householdId: household.id,
      });
      const at = schedule.nextFireAt!;
      const lines = [
        t(language, "household.reminded", {
          name: member.name,
          when: humanTime(at, now, zone, language),
          text,
        }),
      ];
      const mine = humanTime(at, now, user.timeZone, language);
      if (zone !== user.timeZone && mine !== humanTime(at, now, zone, language))
        lines.push(t(language, "household.yourTime", { time: mine }));
      if (
        member.quietStart &&
        member.quietEnd &&
        inQuietHours(Date.parse(at), { start: member.quietStart, end: member.quietEnd, timeZone: zone })
      )
        lines.push(t(language, "household.remindQuiet", { name: member.name }));
      await this.logTask(repositories, user, member, now);
      return { reply: lines.join("\n"), changed: true };
    });
  }

  /** "stop reminders from Yossi" / "allow reminders from Yossi". */
  async reminders(user: User, name: string, allow: boolean, language: Language): Promise<HouseholdReply> {
    const { households } = this.deps.storage.repositories;
    const household = await households.householdOf(user.phone);
    const others = othersOf(household, user.phone);
    const member = memberNamed(others, name);
    if (!member)
      return unchanged(
        others.length === 0 ? t(language, "household.none") : notMember(name, others, language),
      );
    if (allow) {
      const changed = await households.unblock(user.phone, member.phone, "reminders");
      return { text: t(language, "household.remindersOn", { name: member.name }), changed };
    }
    const changed = await households.block(user.phone, member.phone, this.deps.clock(), "reminders");
    return { text: t(language, "household.remindersOff", { name: member.name }), changed };
  }

  /** "turn on list notices" / "turn off list notices". */
  async listNotices(user: User, on: boolean, language: Language): Promise<HouseholdReply> {
    const member = await this.deps.storage.transaction(({ households }) =>
      households.setListNotices(user.phone, on),
    );
    if (!member) return unchanged(t(language, "household.none"));
    return { text: t(language, on ? "household.noticesOn" : "household.noticesOff"), changed: true };
  }

  /** "keep a copy": the shared lists lost by a leaving become the person's own. */
  async keepCopy(user: User, messageId: string, language: Language): Promise<HouseholdReply> {
    return this.change(async ({ households, lists }, now) => {
      const offered = await households.takeCopyOffer(user.phone, now);
      if (!offered?.length) return { reply: t(language, "household.noCopy") };
      const taken = new Set((await lists.list(user.phone)).map((l) => listKey(l.name)));
      const made: string[] = [];
      for (const [i, copy] of offered.entries()) {
        // A name already taken gets a number, so "which list?" can still tell them apart.
        let name = copy.name;
        for (let n = 2; taken.has(listKey(name)); n++) name = `${copy.name} (${n})`;
        taken.add(listKey(name));
        await lists.create(user.phone, `copy:${messageId}#${i}`, { name, items: copy.items });
        made.push(`*${name}*`);
      }
      return { reply: t(language, "household.copied", { lists: made.join(", ") }), changed: true };
    });
  }

  private change(
    work: (repositories: HouseholdRepositories, now: number) => Promise<Outcome>,
  ): Promise<HouseholdReply> {
    return runChange(this.deps, this.newId(), work);
  }
}

/** "Yossi shared the list *shopping* with the household", to each of the others. */
function sharedNotices(others: readonly HouseholdMember[], who: string, list: TaskList, now: number) {
  return others.map((member) =>
    householdNotice(member, `household:shared:${list.id}@${now}:${member.phone}`, now, {
      notice: "shared",
      who,
      list: list.name,
    }),
  );
}

/**
 * The answer to a household request of someone with no one to share with: not in a household, or
 * in one nobody has joined yet (those invited named).
 */
async function alone(
  households: HouseholdRepositories["households"],
  household: Household | null,
  openSince: number,
  language: Language,
): Promise<string> {
  const pending = household ? await households.pendingInvitees(household.id, openSince) : [];
  return pending.length > 0
    ? t(language, "household.nobodyYet", { names: pending.map((p) => p.name).join(", ") })
    : t(language, "household.none");
}

/** The refusal of a name nothing of which shows, or longer than its column keeps; null when it is fine. */
function badName(what: "task" | "list", name: string, language: Language): string | null {
  const invisible = invisibleNameReply(what === "task" ? { text: name } : { listName: name }, language);
  return invisible ?? tooLongReply(name, what, language);
}

function notMember(name: string, others: readonly HouseholdMember[], language: Language): string {
  if (others.length === 0) return t(language, "household.none");
  return t(language, "household.notMember", { name, names: others.map((m) => m.name).join(", ") });
}

/**
 * The list the words name among those the person sees, their own first (exact name first, then
 * without "the … list"); a reply saying there is none (with their lists' names) otherwise.
 */
async function findList(
  seen: Promise<TaskList[]>,
  words: string,
  language: Language,
): Promise<TaskList | string> {
  const lists = await seen;
  const named = (candidates: TaskList[]) =>
    candidates.find((l) => literalOf(l.name) === literalOf(words)) ??
    candidates.find((l) => listKey(l.name) === listKey(words));
  const found = named(lists.filter((l) => !l.owner)) ?? named(lists);
  if (found) return found;
  const name = words.trim();
  return lists.length === 0
    ? t(language, "household.noLists", { name })
    : t(language, "household.noList", { name, names: lists.map((l) => l.name).join(", ") });
}

/** The member whose name the words start with (longest name first), and the words after it. */
function memberAtStart(
  members: Household["members"],
  words: string,
): { member: HouseholdMember; after: string } | null {
  for (const member of [...members].sort((a, b) => b.name.length - a.name.length)) {
    const after = nameAtStart(member.name, words);
    if (after !== null) return { member, after };
  }
  return null;
}

/** The words after `name` when they start with it (any case) followed by a space, comma or colon; else null. */
function nameAtStart(name: string, words: string): string | null {
  const said = words.trim();
  const wanted = name.trim().toLocaleLowerCase();
  if (!wanted || !said.toLocaleLowerCase().startsWith(wanted) || !/^[\s,:]/u.test(said.slice(wanted.length)))
    return null;
  return said.slice(wanted.length).replace(/^[\s,:]+/u, "");
}
