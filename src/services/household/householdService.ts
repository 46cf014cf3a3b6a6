import { randomUUID } from "node:crypto";
import type { NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { Household } from "../../db/repositories/householdRepository.js";
import { t, type Language } from "../../messages/index.js";
import type { User } from "../../types/index.js";
import { dialledNumber, displayPhone } from "../../utils/phone.js";
import { householdNotice } from "../reminder/reminderService.js";
import {
  knownLanguage,
  memberName,
  notice,
  runChange,
  withNumber,
  type HouseholdRepositories,
  type HouseholdServiceDeps,
  type Outcome,
} from "./householdChange.js";

export type { HouseholdRepositories, HouseholdServiceDeps } from "./householdChange.js";

/** Limits of docs/HOUSEHOLD.md. */
export const HOUSEHOLD_LIMITS = {
  /** Invitations one person may send in 24 hours. */
  sentPerDay: 5,
  /** Invitations one number receives in 24 hours, from everyone together; more are not sent. */
  receivedPerDay: 3,
  /** People in one household. */
  members: 8,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long "keep a copy" can take the shared lists one lost by a leaving. */
export const COPY_OFFER_MS = 7 * DAY_MS;

/**
 * Households (docs/HOUSEHOLD.md): invitations and their answers, members joining, leaving and
 * being removed. Every message to another person goes through the scheduler's delivery ledger
 * (exactly once, the 24-hour window and its template, pacing), written in the same transaction as
 * the change it tells of. What this service answers never says whether a number uses Memo.
 */
export class HouseholdService {
  private readonly newId: () => string;

  constructor(private readonly deps: HouseholdServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
  }

  /** "add Dana 050-1234567 to my household": the reply to the inviter. */
  async invite(inviter: User, name: string, typedPhone: string, language: Language): Promise<string> {
    const phone = dialledNumber(typedPhone, inviter.phone);
    if (!phone) return t(language, "household.badPhone", { phone: typedPhone });
    if (phone === inviter.phone) return t(language, "household.self");
    const invitee = await this.deps.users.get(phone);
    return this.change(async ({ households }, now) => {
      const household = await households.householdOf(inviter.phone);
      const member = household?.members.find((m) => m.phone === phone);
      if (member) return { reply: t(language, "household.alreadyMember", { name: member.name }) };
      if ((household?.members.length ?? 1) >= HOUSEHOLD_LIMITS.members)
        return { reply: t(language, "household.full", { count: HOUSEHOLD_LIMITS.members }) };
      const sent = await households.sentSince(inviter.phone, now - DAY_MS);
      if (sent >= HOUSEHOLD_LIMITS.sentPerDay)
        return { reply: t(language, "household.inviteLimit", { count: sent }) };
      const householdId =
        household?.id ?? (await households.create(this.newId(), inviter.phone, memberName(inviter), now));
      const invitation = await households.invite({
        id: this.newId(),
        householdId,
        inviterPhone: inviter.phone,
        inviteeName: name,
        inviteePhone: phone,
        createdAt: now,
      });
      if (!invitation) return { reply: t(language, "household.alreadyInvited", { name }) };
      const reply = t(language, "household.invited", { name });
      // Refused before, or asked too often today by anyone: recorded, not sent, and answered the
      // same as any invitation (the inviter learns nothing about the number).
      if (
        (await households.blocks(phone, inviter.phone)) ||
        (await households.receivedSince(phone, now - DAY_MS)) > HOUSEHOLD_LIMITS.receivedPerDay
      )
        return { reply };
      const invitationNotice = notice(phone, `household:invitation:${invitation.id}`, now, {
        kind: "household",
        notice: "invitation",
        // In the invitee's language when Memo knows it, else in the inviter's.
        language: knownLanguage(invitee) ?? language,
        timeZone: invitee?.timeZone ?? inviter.timeZone,
        who: withNumber(inviter.displayName, inviter.phone),
        invitationId: invitation.id,
      });
      return { reply, tell: [invitationNotice] };
    });
  }

  /** A tap on Accept: the reply to the invitee. */
  async accept(invitee: User, invitationId: string, language: Language): Promise<string> {
    return this.change(async ({ households }, now) => {
      const invitation = await households.openInvitation(invitationId, invitee.phone);
      if (!invitation) return { reply: t(language, "household.invitationGone") };
      const household = await households.householdOf(invitation.inviterPhone);
      if (!household || household.id !== invitation.householdId) {
        await households.answer(invitation.id, "cancelled", now);
        return { reply: t(language, "household.invitationGone") };
      }
      if (household.members.length >= HOUSEHOLD_LIMITS.members)
        return { reply: t(language, "household.full", { count: HOUSEHOLD_LIMITS.members }) };
      // One household per person: already in one (this or another), the invitation stays open.
      if (!(await households.addMember(household.id, invitee.phone, invitation.inviteeName, now)))
        return { reply: t(language, "household.inAnother") };
      await households.answer(invitation.id, "accepted", now);
      const inviter = household.members.find((m) => m.phone === invitation.inviterPhone);
      return {
        reply: t(language, "household.joinedYou", {
          who: inviter?.name ?? displayPhone(invitation.inviterPhone),
        }),
        tell: this.notices(household, invitee.phone, "joined", invitation.inviteeName, now),
      };
    });
  }

  /** A tap on Decline: no more invitations from that person. */
  async decline(invitee: User, invitationId: string, language: Language): Promise<string> {
    const now = this.deps.clock();
    return this.deps.storage.transaction(async ({ households }) => {
      const invitation = await households.openInvitation(invitationId, invitee.phone);
      if (!invitation) return t(language, "household.invitationGone");
      await households.answer(invitation.id, "declined", now);
      await households.block(invitee.phone, invitation.inviterPhone, now);
      const inviter = (await households.householdOf(invitation.inviterPhone))?.members.find(
        (m) => m.phone === invitation.inviterPhone,
      );
      // Named as the invitation named them: their name and number.
      return t(language, "household.declinedYou", {
        who: withNumber(inviter?.name, invitation.inviterPhone),
      });
    });
  }

  /** A typed "stop" while an invitation is open: declines the newest one. Null when none is open. */
  async stop(invitee: User, language: Language): Promise<string | null> {
    const open = await this.deps.storage.repositories.households.latestOpenInvitation(invitee.phone);
    return open ? this.decline(invitee, open.id, language) : null;
  }

  /** A typed "accept" while an invitation is open: accepts the newest one. Null when none is open. */
  async acceptLatest(invitee: User, language: Language): Promise<string | null> {
    const open = await this.deps.storage.repositories.households.latestOpenInvitation(invitee.phone);
    return open ? this.accept(invitee, open.id, language) : null;
  }

  /** "my household": its members ("you" first, then in the order they joined), and who was invited. */
  async describe(user: User, language: Language): Promise<string> {
    const { households } = this.deps.storage.repositories;
    const household = await households.householdOf(user.phone);
    const others = household?.members.filter((m) => m.phone !== user.phone) ?? [];
    const pending = household ? await households.pendingInvitees(household.id) : [];
    const lines = [
      ...(others.length > 0
        ? [
            t(language, "household.members", {
              names: [t(language, "household.you"), ...others.map((m) => m.name)].join(", "),
            }),
          ]
        : []),
      ...(pending.length > 0 ? [t(language, "household.pending", { names: pending.join(", ") })] : []),
    ];
    return lines.length > 0 ? lines.join("\n") : t(language, "household.none");
  }

  /** "leave the household": shared lists stay with their owners; who loses one may keep a copy. */
  async leave(user: User, language: Language): Promise<string> {
    return this.change(async ({ households }, now) => {
      const household = await households.householdOf(user.phone);
      if (!household) return { reply: t(language, "household.none") };
      const me = household.members.find((m) => m.phone === user.phone);
      const lost = await this.endSharing(households, user.phone, household, now);
      await households.cancelSentBy(user.phone, now);
      await households.removeMember(user.phone);
      const mine = lost.get(user.phone) ?? [];
      return {
        reply: [
          t(language, "household.youLeft"),
          ...(mine.length > 0 ? [t(language, "household.copyOffer", { lists: mine.join(", ") })] : []),
        ].join("\n"),
        tell: this.notices(household, user.phone, "left", me?.name ?? displayPhone(user.phone), now, lost),
      };
    });
  }

  /**
   * Ends what `phone` shared and was shared with them in the household, and offers each person
   * who loses a shared list a copy for a week; returns the names of the lists each one lost.
   */
  private async endSharing(
    households: HouseholdRepositories["households"],
    phone: string,
    household: Household,
    now: number,
  ): Promise<Map<string, string[]>> {
    const names = new Map<string, string[]>();
    for (const [person, lists] of await households.endSharing(phone, household)) {
      await households.offerCopies(person, lists, now, now + COPY_OFFER_MS);
      names.set(
        person,
        lists.map((l) => l.name),
      );
    }
    return names;
  }

  /**
   * "remove Dana from the household". A bare "remove Dana" (`explicit` false) is one only when
   * Dana is a member: otherwise null, and the message goes on (it may be a list item) after one
   * read, with no transaction.
   */
  async remove(user: User, name: string, explicit: boolean, language: Language): Promise<string | null> {
    const household = await this.deps.storage.repositories.households.householdOf(user.phone);
    const others = household?.members.filter((m) => m.phone !== user.phone) ?? [];
    const wanted = name.trim().toLocaleLowerCase();
    const target = others.find((m) => m.name.toLocaleLowerCase() === wanted);
    if (!household || !target) {
      if (!explicit) return null;
      if (others.length === 0) return t(language, "household.none");
      return t(language, "household.notMember", { name, names: others.map((m) => m.name).join(", ") });
    }
    const me = household.members.find((m) => m.phone === user.phone);
    return this.change(async ({ households }, now) => {
      // Gone meanwhile (they left): nothing to end, nothing to tell them.
      const still = await households.householdOf(target.phone);
      if (still?.id !== household.id)
        return { reply: t(language, "household.youRemoved", { name: target.name }) };
      const lost = await this.endSharing(households, target.phone, household, now);
      await households.cancelSentBy(target.phone, now);
      await households.removeMember(target.phone);
      const who = me?.name ?? displayPhone(user.phone);
      // Told in their language and zone, held through their quiet hours like every member's notice.
      const removed = householdNotice(
        target,
        `household:removed:${household.id}:${target.phone}@${now}`,
        now,
        {
          notice: "removed",
          who,
          ...(lost.get(target.phone)?.length ? { lost: lost.get(target.phone)! } : {}),
        },
      );
      // The others (not the remover) lose the lists of the one taken out: they are told, with the offer.
      const others = this.notices(
        { ...household, members: household.members.filter((m) => m.phone !== user.phone) },
        target.phone,
        "left",
        target.name,
        now,
        lost,
      );
      const mine = lost.get(user.phone) ?? [];
      return {
        reply: [
          t(language, "household.youRemoved", { name: target.name }),
          ...(mine.length > 0 ? [t(language, "household.copyOffer", { lists: mine.join(", ") })] : []),
        ].join("\n"),
        tell: [removed, ...others],
      };
    });
  }

  private change(work: (repositories: HouseholdRepositories, now: number) => Promise<Outcome>) {
    return runChange(this.deps, this.newId(), work);
  }

  /**
   * A notice to every member of `household` but `about` (who joined or left), in their language
   * and zone, naming the shared lists each one lost by it.
   */
  private notices(
    household: Household,
    about: string,
    kind: "joined" | "left",
    who: string,
    now: number,
    lost: ReadonlyMap<string, string[]> = new Map(),
  ): NewDelivery[] {
    return household.members
      .filter((member) => member.phone !== about)
      .map((member) => {
        const key = `household:${kind}:${household.id}:${about}@${now}:${member.phone}`;
        const lists = lost.get(member.phone) ?? [];
        return householdNotice(
          member,
          key,
          now,
          kind === "joined"
            ? { notice: "joined", who }
            : { notice: "left", who, ...(lists.length > 0 ? { lost: lists } : {}) },
        );
      });
  }
}
