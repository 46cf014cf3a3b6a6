import type { Entry, Translation } from "./entries.js";

/** Households: invitations, their answers, members joining and leaving (docs/HOUSEHOLD.md). */
export const HOUSEHOLD_EN = {
  "household.invitation":
    "👋 {who} invites you to share a household on Memo: a shopping list you both add to, reminders for each other. Only what one of you chooses to share is shared; nothing at all until you accept.",
  "household.buttonAccept": "Accept",
  "household.buttonDecline": "Decline",
  "household.invited":
    "📨 I've invited {name}. Nothing is shared until they accept, and I'll tell you when they do.",
  "household.alreadyInvited": "You've already invited {name}; I'm waiting for their answer.",
  "household.alreadyMember": "{name} is already in your household.",
  "household.self": "That's your own number 🙂 Who would you like to invite?",
  "household.badPhone":
    "I couldn't read “{phone}” as a phone number. Try for example: “add Dana 050-1234567 to my household”.",
  "household.inviteLimit": {
    one: "You've sent {count} invitation today, the most for one day. You can invite again tomorrow.",
    other: "You've sent {count} invitations today, the most for one day. You can invite again tomorrow.",
  },
  "household.full": {
    one: "A household has at most {count} person.",
    other: "A household has at most {count} people.",
  },
  "household.joinedYou":
    "🏠 You've joined {who}'s household. Only what one of you shares is shared; everything else stays your own. Say “my household” to see who's in it, or “leave the household” to leave.",
  "household.inAnother":
    "You're already in a household. To join this one, say “leave the household” first, then tap Accept again.",
  "household.invitationGone": "That invitation is no longer open.",
  "household.declinedYou": "OK, declined. You won't get invitations from {who} again.",
  "household.joined": "🏠 {who} accepted: you now share a household.",
  "household.left": "🏠 {who} left the household.",
  "household.removed": "🏠 {who} took you out of the household. Everything of yours stays yours.",
  "household.members": "🏠 Your household: {names}.",
  "household.pending": "Invited, not answered yet: {names}.",
  "household.none":
    "You're not in a household. To share lists and reminders with someone, say for example: “add Dana 050-1234567 to my household”.",
  "household.youLeft": "You've left the household. Your lists, tasks and notes stay yours.",
  "household.youRemoved": "{name} is no longer in your household.",
  "household.notMember": "There's no “{name}” in your household. It has: {names}.",
  "household.you": "you",
} as const satisfies Record<string, Entry>;

export const HOUSEHOLD_HE: Translation<typeof HOUSEHOLD_EN> = {
  "household.invitation":
    "👋 {who} מזמין/ה אותך למשק בית משותף ב-Memo: רשימת קניות ששניכם מוסיפים אליה, תזכורות אחד לשני. משותף רק מה שאחד מכם בוחר לשתף, ושום דבר לפני שתאשר/י.",
  "household.buttonAccept": "אישור",
  "household.buttonDecline": "לא תודה",
  "household.invited": "📨 הזמנתי את {name}. שום דבר לא משותף עד שיאשרו, ואעדכן אותך כשזה יקרה.",
  "household.alreadyInvited": "כבר הזמנת את {name}; אני מחכה לתשובה.",
  "household.alreadyMember": "{name} כבר במשק הבית שלך.",
  "household.self": "זה המספר שלך 🙂 את מי להזמין?",
  "household.badPhone":
    "לא הצלחתי לקרוא את “{phone}” כמספר טלפון. נסה/י למשל: “תוסיף את דנה 050-1234567 למשק הבית”.",
  "household.inviteLimit": {
    one: "שלחת היום הזמנה אחת, המקסימום ליום. אפשר להזמין שוב מחר.",
    other: "שלחת היום {count} הזמנות, המקסימום ליום. אפשר להזמין שוב מחר.",
  },
  "household.full": {
    one: "במשק בית יש לכל היותר אדם אחד.",
    other: "במשק בית יש לכל היותר {count} אנשים.",
  },
  "household.joinedYou":
    "🏠 הצטרפת למשק הבית של {who}. משותף רק מה שאחד מכם משתף; כל השאר נשאר שלך. כתוב/י “משק הבית שלי” כדי לראות מי בו, או “עזוב את משק הבית” כדי לעזוב.",
  "household.inAnother":
    "את/ה כבר במשק בית. כדי להצטרף לזה, כתוב/י קודם “עזוב את משק הבית”, ואז הקש/י שוב על אישור.",
  "household.invitationGone": "ההזמנה הזאת כבר לא פתוחה.",
  "household.declinedYou": "בסדר, סירבתי. לא יגיעו אליך עוד הזמנות מ{who}.",
  "household.joined": "🏠 {who} אישר/ה: יש לכם עכשיו משק בית משותף.",
  "household.left": "🏠 {who} עזב/ה את משק הבית.",
  "household.removed": "🏠 {who} הוציא/ה אותך ממשק הבית. כל מה ששלך נשאר שלך.",
  "household.members": "🏠 משק הבית שלך: {names}.",
  "household.pending": "הוזמנו וטרם ענו: {names}.",
  "household.none":
    "את/ה לא במשק בית. כדי לשתף רשימות ותזכורות עם מישהו, כתוב/י למשל: “תוסיף את דנה 050-1234567 למשק הבית”.",
  "household.youLeft": "עזבת את משק הבית. הרשימות, המשימות וההערות שלך נשארות שלך.",
  "household.youRemoved": "{name} כבר לא במשק הבית שלך.",
  "household.notMember": "אין “{name}” במשק הבית שלך. יש בו: {names}.",
  "household.you": "את/ה",
};
