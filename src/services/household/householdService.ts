import { randomUUID } from "node:crypto";
import type { DeliveryLedger, NewDelivery, Delivery } from "../../db/repositories/deliveryLedger.js";
import type { HouseholdRepository, Household } from "../../db/repositories/householdRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { Storage } from "../../db/transaction.js";
import { t, type Language } from "../../messages/index.js";
import type { User } from "../../types/index.js";
import type { HouseholdContent } from "../../types/proactive.js";
import type { Logger } from "../../utils/logger.js";
import { replyLanguage } from "../../utils/language.js";
import { dialledNumber, displayPhone } from "../../utils/phone.js";
import { asDelivery } from "../reminder/reminderService.js";

/** The repositories a household change writes together: the household and the messages it sends. */
export interface HouseholdRepositories {
  households: HouseholdRepository;
  deliveries: DeliveryLedger;
}

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

/** What a change answers its author, and the messages to others it tells of (sent once it commits). */
interface Outcome {
  reply: string;
  tell?: NewDelivery[];
}

export interface HouseholdServiceDeps {
  storage: Storage<HouseholdRepositories>;
  users: Pick<UserRepository, "get">;
  /** Sends deliveries this service inserted under their claim token (the reminder service's `send`). */
  deliver: (deliveries: readonly Delivery[]) => Promise<unknown>;
  logger: Logger;
  clock: () => number;
  newId?: () => string;
}

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
        who: `${inviter.displayName ? `${inviter.displayName} ` : ""}(${displayPhone(inviter.phone)})`,
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
      return t(language, "household.declinedYou", { who: displayPhone(invitation.inviterPhone) });
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

  /** "leave the household". */
  async leave(user: User, language: Language): Promise<string> {
    return this.change(async ({ households }, now) => {
      const household = await households.householdOf(user.phone);
      if (!household) return { reply: t(language, "household.none") };
      const me = household.members.find((m) => m.phone === user.phone);
      await households.cancelSentBy(user.phone, now);
      await households.removeMember(user.phone);
      return {
        reply: t(language, "household.youLeft"),
        tell: this.notices(household, user.phone, "left", me?.name ?? displayPhone(user.phone), now),
      };
    });
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
      await households.cancelSentBy(target.phone, now);
      // Gone meanwhile (they left): nothing to tell them.
      if (!(await households.removeMember(target.phone)))
        return { reply: t(language, "household.youRemoved", { name: target.name }) };
      const removed = notice(target.phone, `household:removed:${household.id}:${target.phone}@${now}`, now, {
        kind: "household",
        notice: "removed",
        language: knownLanguage(target) ?? language,
        timeZone: target.timeZone ?? user.timeZone,
        who: me?.name ?? displayPhone(user.phone),
      });
      return { reply: t(language, "household.youRemoved", { name: target.name }), tell: [removed] };
    });
  }

  /**
   * Runs one change in a transaction with the messages it tells of recorded in the delivery
   * ledger under one claim token, then (committed) sends them; returns the reply to its author.
   */
  private async change(
    work: (repositories: HouseholdRepositories, now: number) => Promise<Outcome>,
  ): Promise<string> {
    const now = this.deps.clock();
    const token = this.newId();
    const { reply, tell } = await this.deps.storage.transaction(async (repositories) => {
      const outcome = await work(repositories, now);
      if (!outcome.tell?.length) return { reply: outcome.reply, tell: [] };
      const inserted = await repositories.deliveries.insert(outcome.tell, token, now);
      return { reply: outcome.reply, tell: outcome.tell.filter((row) => inserted.has(row.key)) };
    });
    await this.send(tell, token);
    return reply;
  }

  /** A notice to every member of `household` but `about` (who joined or left), in their language and zone. */
  private notices(
    household: Household,
    about: string,
    kind: "joined" | "left",
    who: string,
    now: number,
  ): NewDelivery[] {
    return household.members
      .filter((member) => member.phone !== about)
      .map((member) =>
        notice(member.phone, `household:${kind}:${household.id}:${about}@${now}:${member.phone}`, now, {
          kind: "household",
          notice: kind,
          language: replyLanguage(member.language),
          timeZone: member.timeZone ?? "UTC",
          who,
        }),
      );
  }

  /** Sends what a committed change inserted; a failure leaves it to the scheduler's takeover. */
  private async send(rows: readonly NewDelivery[], token: string): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.deps.deliver(rows.map((row) => asDelivery(row, token)));
    } catch (error) {
      this.deps.logger.error(
        { err: error, event: "HOUSEHOLD_NOTICE_FAILED", keys: rows.map((r) => r.key) },
        "household message not sent now; the scheduler takes it over after the claim lease",
      );
    }
  }
}

/** What a household calls a person who started it or joined without being named: their WhatsApp name, else their number. */
function memberName(user: User): string {
  return user.displayName?.trim() || displayPhone(user.phone);
}

function knownLanguage(user: Pick<User, "language"> | null | undefined): Language | null {
  return user?.language === "he" || user?.language === "en" ? user.language : null;
}

function notice(phone: string, key: string, now: number, content: HouseholdContent): NewDelivery {
  return { key, phone, kind: "household", taskId: null, occurrenceAt: now, content, sendAfter: now };
}
