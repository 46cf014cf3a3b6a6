import type { DeliveryLedger, NewDelivery, Delivery } from "../../db/repositories/deliveryLedger.js";
import type { HouseholdRepository, Household } from "../../db/repositories/householdRepository.js";
import type { ListRepository } from "../../db/repositories/listRepository.js";
import type { TaskRepository } from "../../db/repositories/taskRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { Storage } from "../../db/transaction.js";
import type { Language } from "../../messages/index.js";
import type { User } from "../../types/index.js";
import type { HouseholdContent } from "../../types/proactive.js";
import type { Logger } from "../../utils/logger.js";
import { literalOf } from "../../utils/fuzzy.js";
import { displayPhone, formatPhone } from "../../utils/phone.js";
import { asDelivery } from "../reminder/deliveryRows.js";

/**
 * The repositories a household change writes together: the household, the messages it sends,
 * and the lists and tasks it shares (each read as the person asking sees them).
 */
export interface HouseholdRepositories {
  households: HouseholdRepository;
  deliveries: DeliveryLedger;
  lists: ListRepository;
  tasks: TaskRepository;
}

export interface HouseholdServiceDeps {
  storage: Storage<HouseholdRepositories>;
  users: Pick<UserRepository, "get">;
  /** Sends deliveries this service inserted under their claim token (the reminder service's `send`). */
  deliver: (deliveries: readonly Delivery[]) => Promise<unknown>;
  logger: Logger;
  clock: () => number;
  newId?: () => string;
  /** Days an invitation stays open, and tasks a day one member may give another (HOUSEHOLD_SETTINGS). */
  settings?: Partial<HouseholdSettings>;
}

/** What can be configured of households (docs/HOUSEHOLD.md, .env.example). */
export interface HouseholdSettings {
  /** Days an invitation can be answered, and is listed to its inviter (HOUSEHOLD_INVITATION_DAYS, default: 7). */
  invitationDays: number;
  /** Reminders and tasks one member may give another in 24 hours (HOUSEHOLD_TASKS_PER_DAY, default: 10). */
  tasksPerDay: number;
}

export const DEFAULT_HOUSEHOLD_SETTINGS: HouseholdSettings = { invitationDays: 7, tasksPerDay: 10 };

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A household command's answer, and whether it changed anything (only a change is journaled for undo). */
export interface HouseholdReply {
  text: string;
  changed: boolean;
}

/** A reply that changed nothing (a refusal, a question of what was meant, a read). */
export function unchanged(text: string): HouseholdReply {
  return { text, changed: false };
}

/**
 * What a change answers its author, whether it changed something (default: no), and the messages
 * to others it tells of (sent once it commits).
 */
export interface Outcome {
  reply: string;
  changed?: boolean;
  tell?: NewDelivery[];
}

/**
 * Runs one change in a transaction with the messages it tells of recorded in the delivery
 * ledger under one claim token, then (committed) sends them; returns the reply to its author.
 * A send that fails now is left to the scheduler, which takes the row over after the claim lease.
 */
export async function runChange(
  deps: HouseholdServiceDeps,
  token: string,
  work: (repositories: HouseholdRepositories, now: number) => Promise<Outcome>,
): Promise<HouseholdReply> {
  const now = deps.clock();
  const { reply, tell } = await deps.storage.transaction(async (repositories) => {
    const outcome = await work(repositories, now);
    const reply = { text: outcome.reply, changed: outcome.changed ?? false };
    if (!outcome.tell?.length) return { reply, tell: [] };
    const inserted = await repositories.deliveries.insert(outcome.tell, token, now);
    return { reply, tell: outcome.tell.filter((row) => inserted.has(row.key)) };
  });
  if (tell.length === 0) return reply;
  try {
    await deps.deliver(tell.map((row) => asDelivery(row, token)));
  } catch (error) {
    deps.logger.error(
      { err: error, event: "HOUSEHOLD_NOTICE_FAILED", keys: tell.map((r) => r.key) },
      "household message not sent now; the scheduler takes it over after the claim lease",
    );
  }
  return reply;
}

/** What a household calls a person who started it or joined without being named: their WhatsApp name, else their number. */
export function memberName(user: User): string {
  return user.displayName?.trim() || formatPhone(user.phone);
}

/** A person named with their number ("Yossi (+972 52 111 0001)"), or the number alone when it is all the name there is. */
export function withNumber(name: string | null | undefined, phone: string): string {
  const number = displayPhone(phone);
  return name?.trim() && name.trim() !== formatPhone(phone) ? `${name.trim()} (${number})` : number;
}

export function knownLanguage(user: Pick<User, "language"> | null | undefined): Language | null {
  return user?.language === "he" || user?.language === "en" ? user.language : null;
}

/** A household message to `phone` under ledger key `key`, sent now. */
export function notice(phone: string, key: string, now: number, content: HouseholdContent): NewDelivery {
  return { key, phone, kind: "household", taskId: null, occurrenceAt: now, content, sendAfter: now };
}

/** The other members of `household` (all but `phone`). */
export function othersOf(household: Household | null, phone: string): Household["members"] {
  return household?.members.filter((m) => m.phone !== phone) ?? [];
}

/** The member among `members` the words name (their household name, any case), or undefined. */
export function memberNamed(members: Household["members"], words: string) {
  const wanted = literalOf(words);
  return members.find((m) => literalOf(m.name) === wanted);
}
