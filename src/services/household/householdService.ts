import { randomUUID } from "node:crypto";
import type { DeliveryLedger, NewDelivery, Delivery } from "../../db/repositories/deliveryLedger.js";
import type { HouseholdRepository, Household } from "../../db/repositories/householdRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { Storage } from "../../db/transaction.js";
import { t, type Language } from "../../messages/index.js";
import type { User } from "../../types/index.js";
import type { HouseholdContent } from "../../types/proactive.js";
import type { Logger } from "../../utils/logger.js";
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

/** What a change answers its author, and the messages to others it recorded. */
interface Outcome {
  reply: string;
  rows?: NewDelivery[];
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
    const now = this.deps.clock();
    const invitee = await this.deps.users.get(phone);
    const token = this.newId();
    const outcome = await this.deps.storage.transaction<Outcome>(async ({ households, deliveries }) => {
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
      const invited = { reply: t(language, "household.invited", { name }) };
      // Refused before, or asked too often today by anyone: recorded, not sent, and answered the
      // same as any invitation (the inviter learns nothing about the number).
      if (
        (await households.blocks(phone, inviter.phone)) ||
        (await households.receivedSince(phone, now - DAY_MS)) > HOUSEHOLD_LIMITS.receivedPerDay
      )
        return invited;
      const row = notice(phone, `household:invitation:${invitation.id}`, now, {
        kind: "household",
        notice: "invitation",
        // In the invitee's language when Memo knows it, else in the inviter's.
        language: knownLanguage(invitee) ?? language,
        timeZone: invitee?.timeZone ?? inviter.timeZone,
        who: `${inviter.displayName ? `${inviter.displayName} ` : ""}(${displayPhone(inviter.phone)})`,
        invitationId: invitation.id,
      });
      const inserted = await deliveries.insert([row], token, now);
      return { ...invited, rows: inserted.has(row.key) ? [row] : [] };
    });
    await this.send(outcome.rows ?? [], token);
    return outcome.reply;
  }

  /** A tap on Accept: the reply to the invitee. */
  async accept(invitee: User, invitationId: string, language: Language): Promise<string> {
    const now = this.deps.clock();
    const token = this.newId();
    const outcome = await this.deps.storage.transaction<Outcome>(async ({ households, deliveries }) => {
      const invitation = await households.openInvitation(invitationId, invitee.phone);
      if (!invitation) return { reply: t(language, "household.invitationGone") };
      if (await households.householdOf(invitee.phone)) return { reply: t(language, "household.inAnother") };
      const household = await households.householdOf(invitation.inviterPhone);
      if (!household || household.id !== invitation.householdId) {
        await households.answer(invitation.id, "cancelled", now);
        return { reply: t(language, "household.invitationGone") };
      }
      if (household.members.length >= HOUSEHOLD_LIMITS.members)
        return { reply: t(language, "household.full", { count: HOUSEHOLD_LIMITS.members }) };
      await households.answer(invitation.id, "accepted", now);
      await households.addMember(household.id, invitee.phone, invitation.inviteeName, now);
      const inviter = household.members.find((m) => m.phone === invitation.inviterPhone);
      const rows = this.notices(household, invitee.phone, "joined", invitation.inviteeName, now);
      const inserted = await deliveries.insert(rows, token, now);
      return {
        reply: t(language, "household.joinedYou", {
          who: inviter?.name ?? displayPhone(invitation.inviterPhone),
        }),
        rows: rows.filter((r) => inserted.has(r.key)),
      };
    });
    await this.send(outcome.rows ?? [], token);
    return outcome.reply;
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

  /** "my household": its members, and who was invited. */
  async describe(user: User, language: Language): Promise<string> {
    const household = await this.deps.storage.repositories.households.householdOf(user.phone);
    if (!household || household.members.length < 2) {
      const pending = household ? await this.pendingNames(household.id) : [];
      if (pending.length === 0) return t(language, "household.none");
      return t(language, "household.pending", { names: pending.join(", ") });
    }
    // "you" first, then the others in the order they joined.
    const names = [
      t(language, "household.you"),
      ...household.members.filter((m) => m.phone !== user.phone).map((m) => m.name),
    ];
    const pending = await this.pendingNames(household.id);
    const lines = [t(language, "household.members", { names: names.join(", ") })];
    if (pending.length > 0) lines.push(t(language, "household.pending", { names: pending.join(", ") }));
    return lines.join("\n");
  }

  /** "leave the household". */
  async leave(user: User, language: Language): Promise<string> {
    const now = this.deps.clock();
    const token = this.newId();
    const outcome = await this.deps.storage.transaction<Outcome>(async ({ households, deliveries }) => {
      const household = await households.householdOf(user.phone);
      if (!household) return { reply: t(language, "household.none") };
      const me = household.members.find((m) => m.phone === user.phone);
      await households.cancelSentBy(user.phone, now);
      await households.removeMember(user.phone);
      const rows = this.notices(household, user.phone, "left", me?.name ?? displayPhone(user.phone), now);
      const inserted = await deliveries.insert(rows, token, now);
      return { reply: t(language, "household.youLeft"), rows: rows.filter((r) => inserted.has(r.key)) };
    });
    await this.send(outcome.rows ?? [], token);
    return outcome.reply;
  }

  /**
   * "remove Dana from the household". A bare "remove Dana" (`explicit` false) is one only when
   * Dana is a member: otherwise null, and the message goes on (it may be a list item).
   */
  async remove(user: User, name: string, explicit: boolean, language: Language): Promise<string | null> {
    const now = this.deps.clock();
    const token = this.newId();
    const outcome = await this.deps.storage.transaction<Outcome | null>(
      async ({ households, deliveries }) => {
        const household = await households.householdOf(user.phone);
        const others = household?.members.filter((m) => m.phone !== user.phone) ?? [];
        const wanted = name.trim().toLocaleLowerCase();
        const target = others.find((m) => m.name.toLocaleLowerCase() === wanted);
        if (!target) {
          if (!explicit) return null;
          if (!household || others.length === 0) return { reply: t(language, "household.none") };
          return {
            reply: t(language, "household.notMember", { name, names: others.map((m) => m.name).join(", ") }),
          };
        }
        await households.cancelSentBy(target.phone, now);
        await households.removeMember(target.phone);
        const me = household!.members.find((m) => m.phone === user.phone);
        const row = notice(target.phone, `household:removed:${household!.id}:${target.phone}@${now}`, now, {
          kind: "household",
          notice: "removed",
          language: knownLanguage(target) ?? language,
          timeZone: target.timeZone ?? user.timeZone,
          who: me?.name ?? displayPhone(user.phone),
        });
        const inserted = await deliveries.insert([row], token, now);
        return {
          reply: t(language, "household.youRemoved", { name: target.name }),
          rows: inserted.has(row.key) ? [row] : [],
        };
      },
    );
    if (!outcome) return null;
    await this.send(outcome.rows ?? [], token);
    return outcome.reply;
  }

  /** Names of the people invited to the household who have not answered yet. */
  private async pendingNames(householdId: string): Promise<string[]> {
    return this.deps.storage.repositories.households.pendingInvitees(householdId);
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
          language: knownLanguage(member) ?? "en",
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

function knownLanguage(user: { language: string | null } | null | undefined): Language | null {
  return user?.language === "he" || user?.language === "en" ? user.language : null;
}

function notice(phone: string, key: string, now: number, content: HouseholdContent): NewDelivery {
  return { key, phone, kind: "household", taskId: null, occurrenceAt: now, content, sendAfter: now };
}
