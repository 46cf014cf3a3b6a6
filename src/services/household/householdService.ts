import { randomUUID } from "node:crypto";
import type { NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { Household, Invitation } from "../../db/repositories/householdRepository.js";
import { t, type Language } from "../../messages/index.js";
import type { User } from "../../types/index.js";
import { dialledNumber, displayPhone } from "../../utils/phone.js";
import { householdNotice } from "../reminder/householdNotices.js";
import {
  DAY_MS,
  DEFAULT_HOUSEHOLD_SETTINGS,
  knownLanguage,
  memberName,
  memberNamed,
  notice,
  runChange,
  unchanged,
  withNumber,
  type HouseholdReply,
  type HouseholdRepositories,
  type HouseholdServiceDeps,
  type HouseholdSettings,
  type Outcome,
} from "./householdChange.js";
import { freeName, memberNameOf, sameName } from "./householdNames.js";

export type { HouseholdRepositories, HouseholdServiceDeps } from "./householdChange.js";

/** Limits of docs/HOUSEHOLD.md. */
const HOUSEHOLD_LIMITS = {
  /** Invitations one person may send in 24 hours. */
  sentPerDay: 5,
  /** Invitations one number receives in 24 hours, from everyone together; more are not sent. */
  receivedPerDay: 3,
  /** People in one household. */
  members: 8,
} as const;

/** How long "keep a copy" can take the shared lists one lost by a leaving. */
const COPY_OFFER_MS = 7 * DAY_MS;

/** An open invitation an answer may mean, and who sent it (their name and number). */
interface InvitationChoice {
  id: string;
  who: string;
}

/**
 * What a typed or quoted "accept" / "stop" may answer: the open invitations it may mean (one, or
 * several to ask about), or `gone` when the one it names (quoted, or the only one, expired) can no
 * longer be answered.
 */
type InvitationChoices = { kind: "open"; invitations: InvitationChoice[] } | { kind: "gone" };

/**
 * Households (docs/HOUSEHOLD.md): invitations and their answers, members joining, leaving and
 * being removed. Every message to another person goes through the scheduler's delivery ledger
 * (exactly once, the 24-hour window and its template, pacing), written in the same transaction as
 * the change it tells of. What this service answers never says whether a number uses Memo.
 * Each answer says whether it changed something: only a change is journaled for "undo".
 */
export class HouseholdService {
  private readonly newId: () => string;
  private readonly settings: HouseholdSettings;

  constructor(private readonly deps: HouseholdServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.settings = { ...DEFAULT_HOUSEHOLD_SETTINGS, ...deps.settings };
  }

  /** Invitations made at or before this instant are expired. */
  private openSince(now: number): number {
    return now - this.settings.invitationDays * DAY_MS;
  }

  /** "add Dana 050-1234567 to my household": the reply to the inviter. */
  async invite(
    inviter: User,
    rawName: string,
    typedPhone: string,
    language: Language,
  ): Promise<HouseholdReply> {
    const named = memberNameOf(rawName, language);
    if ("refused" in named) return unchanged(named.refused);
    const { name } = named;
    const phone = dialledNumber(typedPhone, inviter.phone);
    if (!phone) return unchanged(t(language, "household.badPhone", { phone: typedPhone }));
    if (phone === inviter.phone) return unchanged(t(language, "household.self"));
    const invitee = await this.deps.users.get(phone);
    return this.change(async ({ households }, now) => {
      // Invitations to one number from several people at once (on two instances) are counted one
      // after the other, so none passes the day's limit.
      await households.lockInvitee(phone);
      const openSince = this.openSince(now);
      const household = await households.householdOf(inviter.phone);
      const member = household?.members.find((m) => m.phone === phone);
      if (member) return { reply: t(language, "household.alreadyMember", { name: member.name }) };
      if ((household?.members.length ?? 1) >= HOUSEHOLD_LIMITS.members)
        return { reply: t(language, "household.full", { count: HOUSEHOLD_LIMITS.members }) };
      // Declined looks the same as unanswered until it expires: the inviter learns nothing.
      const invited = household ? await households.invitedAlready(household.id, phone, openSince) : null;
      if (invited) return { reply: t(language, "household.alreadyInvited", { name: invited }) };
      // One name, one person: reminders say "from Dana", and "remove Dana" must mean one of them.
      const taken = household
        ? [
            ...household.members.map((m) => m.name),
            ...(await households.pendingInvitees(household.id, openSince)).map((p) => p.name),
          ]
        : [memberName(inviter)];
      if (taken.some((other) => sameName(other, name)))
        return { reply: t(language, "household.nameTaken", { name }) };
      const sent = await households.sentSince(inviter.phone, now - DAY_MS);
      if (sent >= HOUSEHOLD_LIMITS.sentPerDay)
        return { reply: t(language, "household.inviteLimit", { count: sent }) };
      const householdId =
        household?.id ?? (await households.create(this.newId(), inviter.phone, memberName(inviter), now));
      // Refused before, or asked too often today by anyone: recorded, not sent, and answered the
      // same as any invitation (the inviter learns nothing about the number).
      const delivered =
        !(await households.blocks(phone, inviter.phone)) &&
        (await households.receivedSince(phone, now - DAY_MS)) < HOUSEHOLD_LIMITS.receivedPerDay;
      const invitation = await households.invite(
        {
          id: this.newId(),
          householdId,
          inviterPhone: inviter.phone,
          inviteeName: name,
          inviteePhone: phone,
          createdAt: now,
        },
        delivered,
        openSince,
      );
      if (!invitation) return { reply: t(language, "household.alreadyInvited", { name }) };
      // The limits count from their own log, which no leaving or ending of a household empties.
      await households.log(
        { from: inviter.phone, to: phone, kind: "invitation", delivered, atMs: now },
        now - DAY_MS,
      );
      const reply = t(language, "household.invited", { name });
      if (!delivered) return { reply, changed: true };
      const invitationNotice = notice(phone, `household:invitation:${invitation.id}`, now, {
        kind: "household",
        notice: "invitation",
        // In the invitee's language when Memo knows it, else in the inviter's.
        language: knownLanguage(invitee) ?? language,
        timeZone: invitee?.timeZone ?? inviter.timeZone,
        who: withNumber(inviter.displayName, inviter.phone),
        invitationId: invitation.id,
      });
      return { reply, changed: true, tell: [invitationNotice] };
    });
  }

  /**
   * Accept (a tap, or a typed "accept" that means this invitation): the reply to the invitee. Only
   * an invitation delivered to them, still open, from someone they have not refused, is answered.
   */
  async accept(invitee: User, invitationId: string, language: Language): Promise<HouseholdReply> {
    return this.change(async ({ households }, now) => {
      const invitation = await households.openInvitation(invitationId, invitee.phone, this.openSince(now));
      if (!invitation) return { reply: t(language, "household.invitationGone") };
      const household = await households.householdOf(invitation.inviterPhone);
      if (!household || household.id !== invitation.householdId) {
        // The inviter is in another household now: closed, and nothing of the person's changed.
        await households.answer(invitation.id, "cancelled", now);
        return { reply: t(language, "household.invitationGone") };
      }
      if (household.members.length >= HOUSEHOLD_LIMITS.members)
        return { reply: t(language, "household.full", { count: HOUSEHOLD_LIMITS.members }) };
      // Names were unique when invited; should a member have taken this one since, a number tells them apart.
      const name = freeName(
        invitation.inviteeName,
        household.members.map((m) => m.name),
      );
      // One household per person: already in one (this or another), the invitation stays open.
      if (!(await households.addMember(household.id, invitee.phone, name, now)))
        return { reply: t(language, "household.inAnother") };
      await households.answer(invitation.id, "accepted", now);
      const inviter = household.members.find((m) => m.phone === invitation.inviterPhone);
      return {
        reply: t(language, "household.joinedYou", {
          who: inviter?.name ?? displayPhone(invitation.inviterPhone),
        }),
        changed: true,
        tell: this.notices(household, invitee.phone, "joined", name, now),
      };
    });
  }

  /** Decline (a tap, or a typed "stop" that means this invitation): no more invitations from that person. */
  async decline(invitee: User, invitationId: string, language: Language): Promise<HouseholdReply> {
    return this.change(async ({ households }, now) => {
      const invitation = await households.openInvitation(invitationId, invitee.phone, this.openSince(now));
      if (!invitation) return { reply: t(language, "household.invitationGone") };
      await households.answer(invitation.id, "declined", now);
      await households.block(invitee.phone, invitation.inviterPhone, now);
      const inviter = (await households.householdOf(invitation.inviterPhone))?.members.find(
        (m) => m.phone === invitation.inviterPhone,
      );
      // Named as the invitation named them: their name and number.
      return {
        reply: t(language, "household.declinedYou", {
          who: withNumber(inviter?.name, invitation.inviterPhone),
        }),
        changed: true,
      };
    });
  }

  /**
   * The invitations a typed "accept" or "stop" (`answer`) of `phone` may mean, quoting the message
   * `quoted` or not; null when it means none (it is not about an invitation: the rest of Memo reads it).
   * A quoted invitation is the one meant, open or not. Unquoted, every invitation an answer may
   * apply to (delivered, open, from someone not refused); with none, an "accept" after an
   * invitation that expired unanswered hears that it is no longer open.
   */
  async invitationsMeant(
    phone: string,
    answer: "accept" | "decline",
    quoted?: string,
  ): Promise<InvitationChoices | null> {
    const { households } = this.deps.storage.repositories;
    const now = this.deps.clock();
    const openSince = this.openSince(now);
    if (quoted) {
      // Quoting something else (a reminder: "stop") answers no invitation: the rest of Memo reads it.
      const quotedId = await households.invitationSentAs(phone, quoted);
      if (!quotedId) return null;
      const open = await households.openInvitation(quotedId, phone, openSince);
      return open ? { kind: "open", invitations: this.choices([open]) } : { kind: "gone" };
    }
    const open = await households.answerableInvitations(phone, openSince);
    if (open.length > 0) return { kind: "open", invitations: this.choices(open) };
    if (
      answer === "accept" &&
      (await households.expiredUnanswered(phone, this.openSince(openSince), openSince))
    )
      return { kind: "gone" };
    return null;
  }

  private choices(invitations: readonly (Invitation & { inviterDisplayName?: string | null })[]) {
    // The number first: a choice's title is cut short, and a WhatsApp name can pose as a number.
    return invitations.map((i) => ({
      id: i.id,
      who: [displayPhone(i.inviterPhone), i.inviterDisplayName?.trim()].filter(Boolean).join(" "),
    }));
  }

  /** "my household": its members ("you" first, then in the order they joined), and who was invited. */
  async describe(user: User, language: Language): Promise<HouseholdReply> {
    const { households } = this.deps.storage.repositories;
    const household = await households.householdOf(user.phone);
    const others = household?.members.filter((m) => m.phone !== user.phone) ?? [];
    // Unanswered and declined alike until they expire: a refusal is never shown.
    const pending = household
      ? await households.pendingInvitees(household.id, this.openSince(this.deps.clock()))
      : [];
    const lines = [
      ...(others.length > 0
        ? [
            t(language, "household.members", {
              names: [t(language, "household.you"), ...others.map((m) => m.name)].join(", "),
            }),
          ]
        : []),
      ...(pending.length > 0
        ? [t(language, "household.pending", { names: pending.map((p) => p.name).join(", ") })]
        : []),
    ];
    return unchanged(lines.length > 0 ? lines.join("\n") : t(language, "household.none"));
  }

  /**
   * "leave the household": shared lists stay with their owners; who loses one may keep a copy.
   * The invitations one sent are withdrawn; a household left with one member ends, with its open
   * invitations (the one left is told).
   */
  async leave(user: User, language: Language): Promise<HouseholdReply> {
    return this.change(async ({ households }, now) => {
      const household = await households.householdOf(user.phone);
      if (!household) return { reply: t(language, "household.none") };
      const me = household.members.find((m) => m.phone === user.phone);
      const ends = household.members.length <= 2;
      const pending = await households.pendingInvitees(household.id, this.openSince(now));
      const withdrawn = pending.filter((p) => p.inviterPhone === user.phone).map((p) => p.name);
      const lost = await this.endSharing(households, user.phone, household, now);
      await households.cancelInvitationsOf(user.phone, household.id, now);
      await households.removeMember(user.phone);
      const mine = lost.get(user.phone) ?? [];
      return {
        reply: [
          t(language, "household.youLeft"),
          ...(withdrawn.length > 0
            ? [t(language, "household.invitationsWithdrawn", { names: withdrawn.join(", ") })]
            : []),
          ...(mine.length > 0 ? [t(language, "household.copyOffer", { lists: mine.join(", ") })] : []),
        ].join("\n"),
        changed: true,
        tell: this.notices(
          household,
          user.phone,
          "left",
          me?.name ?? displayPhone(user.phone),
          now,
          lost,
          ends ? pending.map((p) => p.name) : undefined,
        ),
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
  async remove(
    user: User,
    name: string,
    explicit: boolean,
    language: Language,
  ): Promise<HouseholdReply | null> {
    const household = await this.deps.storage.repositories.households.householdOf(user.phone);
    const others = household?.members.filter((m) => m.phone !== user.phone) ?? [];
    const target = memberNamed(others, name);
    if (!household || !target) {
      if (!explicit) return null;
      if (others.length === 0) return unchanged(t(language, "household.none"));
      return unchanged(
        t(language, "household.notMember", { name, names: others.map((m) => m.name).join(", ") }),
      );
    }
    const me = household.members.find((m) => m.phone === user.phone);
    return this.change(async ({ households }, now) => {
      // Gone meanwhile (they left): nothing to end, nothing to tell them.
      const still = await households.householdOf(target.phone);
      if (still?.id !== household.id)
        return { reply: t(language, "household.youRemoved", { name: target.name }) };
      const ends = still.members.length <= 2;
      const withdrawn = ends
        ? (await households.pendingInvitees(household.id, this.openSince(now))).map((p) => p.name)
        : [];
      const lost = await this.endSharing(households, target.phone, household, now);
      // What they sent, and any invitation back into this household, closes: none brings them back.
      await households.cancelInvitationsOf(target.phone, household.id, now);
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
          ...(!ends
            ? []
            : withdrawn.length > 0
              ? [t(language, "household.endedWithdrawn", { names: withdrawn.join(", ") })]
              : [t(language, "household.ended")]),
          ...(mine.length > 0 ? [t(language, "household.copyOffer", { lists: mine.join(", ") })] : []),
        ].join("\n"),
        changed: true,
        tell: [removed, ...others],
      };
    });
  }

  private change(
    work: (repositories: HouseholdRepositories, now: number) => Promise<Outcome>,
  ): Promise<HouseholdReply> {
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
    /** The household ends with this (one member left): the one left is told so, with the invitations withdrawn. */
    ended?: string[],
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
            : {
                notice: "left",
                who,
                ...(lists.length > 0 ? { lost: lists } : {}),
                ...(ended ? { ended: true, ...(ended.length > 0 ? { withdrawn: ended } : {}) } : {}),
              },
        );
      });
  }
}
