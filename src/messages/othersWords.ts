import type { HOUSEHOLD_EN } from "./household.js";
import type { TASKS_EN } from "./tasks.js";
import type { UNDO_EN } from "./undo.js";

/**
 * How a placeholder that carries another person's words is shown (utils/quotedText.ts): within
 * the line, or as a quote on lines of its own, under the name the sentence gives before it.
 */
export type Quoting = "inline" | "block";

type Placeholders = Readonly<Record<string, Quoting>>;
type Key = keyof typeof HOUSEHOLD_EN | keyof typeof TASKS_EN | keyof typeof UNDO_EN;

/** A person's name, on the line. */
const NAME = "inline";

/**
 * The placeholders of each sentence that carry words someone other than the reader wrote, or may
 * have (DECISIONS D14): people's names (the WhatsApp name of an inviter, the name an inviter gave a
 * member), the names of lists another member shared, and the texts of tasks and reminders given.
 * `t` shows them through quotedText, so no caller can forget to; the rest are Memo's own words.
 * A value that already carries Memo's markup (the bold list names of "household.copied") is not
 * listed: it would lose its bold.
 */
export const OTHERS_WORDS: { readonly [K in Key]?: Placeholders } = {
  "household.invitation": { who: NAME },
  "household.invited": { name: NAME },
  "household.alreadyInvited": { name: NAME },
  "household.alreadyMember": { name: NAME },
  "household.joinedYou": { who: NAME },
  "household.declinedYou": { who: NAME },
  "household.joined": { who: NAME },
  "household.left": { who: NAME },
  "household.removed": { who: NAME },
  "household.members": { names: NAME },
  "household.pending": { names: NAME },
  "household.youRemoved": { name: NAME },
  "household.notMember": { name: NAME, names: NAME },
  "household.giveAsk": { name: NAME, text: "inline" },
  "household.giveExplicit": { name: NAME },
  "household.nobodyYet": { names: NAME },
  "household.copyOffer": { lists: "inline" },
  "household.shared": { who: NAME, list: "inline" },
  "household.sharedList": { list: "inline", names: NAME },
  "household.alreadyShared": { list: "inline", names: NAME },
  "household.unshared": { list: "inline" },
  "household.notShared": { list: "inline" },
  "household.theirList": { list: "inline", owner: NAME },
  "household.noList": { name: "inline", names: "inline" },
  "household.noLists": { name: "inline" },
  "household.newSharedList": { list: "inline", names: NAME },
  "household.listTaken": { list: "inline" },
  // A task given: its words quoted under the giver's name.
  "household.task": { who: NAME, text: "block" },
  "household.done": { who: NAME, text: "inline" },
  "household.stillOpen": { who: NAME, text: "inline" },
  "household.stillOpenSince": { who: NAME, text: "inline" },
  "household.listChange": { who: NAME, list: "inline" },
  "household.taskFrom": { name: NAME },
  // Undo names what a change touched: on a shared list, another member's item, list and name.
  "undo.what.item": { text: "inline" },
  "undo.what.list": { text: "inline" },
  "undo.what.task": { text: "inline" },
  "undo.change.clear": { list: "inline" },
  "undo.change.add": { list: "inline" },
  "undo.change.tick": { list: "inline" },
  "undo.change.untick": { list: "inline" },
  "undo.change.remove": { list: "inline" },
  "undo.did.clear": { list: "inline" },
  "undo.did.deleteList": { list: "inline" },
  "undo.did.list": { list: "inline" },
  "undo.changedBy": { who: NAME },
  "undo.unshared": { list: "inline" },
  "household.nameTaken": { name: NAME },
  "household.invitationsWithdrawn": { names: NAME },
  "household.endedWithdrawn": { names: NAME },
  "household.notYet": { name: NAME },
  "household.taskLimit": { name: NAME },
  "household.assigned": { name: NAME, text: "inline" },
  "household.reminded": { name: NAME, text: "inline" },
  "household.remindQuiet": { name: NAME },
  "household.remindHow": { name: NAME },
  "household.remindOnce": { name: NAME },
  "household.remindBlocked": { name: NAME },
  "household.remindersOff": { name: NAME },
  "household.remindersOn": { name: NAME },
  // A reminder another member set: its words quoted under their name.
  "reminder.ringFrom": { from: NAME, text: "block" },
  "reminder.ringFromAt": { from: NAME, text: "block" },
  "list.notOwner": { name: "inline", owner: NAME },
  "list.sharedBy": { owner: NAME },
  listExistsShared: { name: "inline", owner: NAME },
};
