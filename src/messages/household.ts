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
  "household.giveAsk": "Give {name} the task “{text}”? I'll tell them, and you when it's done.",
  "household.giveExplicit": "To give {name} a task, say “task for {name}: …”.",
  "household.nobodyYet":
    "Nobody has joined your household yet ({names} hasn't accepted). Once someone does, you can share lists and remind each other.",
  "household.copyOffer": "You no longer see {lists}. Say “keep a copy” within a week to keep your own copy.",
  "household.copied": "📋 Kept your own copy of {lists}. It's yours alone.",
  "household.noCopy":
    "There's nothing to keep a copy of: a copy of shared lists can be kept for a week after leaving a household.",
  "household.shared":
    "🏠 {who} shared the list *{list}* with the household. Say “show {list} list” to see it, or “add milk to {list} list”.",
  "household.sharedList":
    "🏠 *{list}* is now shared with your household ({names}): they see it and can change its items. Say “stop sharing {list}” to stop.",
  "household.alreadyShared": "*{list}* is already shared with your household ({names}).",
  "household.unshared": "*{list}* is no longer shared; it's yours alone again.",
  "household.notShared": "*{list}* isn't shared.",
  "household.theirList": "*{list}* is {owner}'s list, shared with you; only {owner} can change who sees it.",
  "household.noList": "You have no list called “{name}”. Your lists: {names}.",
  "household.noLists": "You have no list called “{name}”.",
  "household.newSharedList":
    "🏠 Made the list *{list}*, shared with your household ({names}). Add to it with “add milk to {list} list”.",
  "household.listTaken": "There's already a list *{list}*. To share it: “share {list} with the household”.",
  "household.task": "📋 {who} gave you a task: {text}\nI'll let {who} know when you mark it done.",
  "household.done": "✅ {who} marked “{text}” done.",
  "household.stillOpen": "⏳ {who} hasn't marked “{text}” done yet (the reminder went an hour ago).",
  "household.stillOpenSince": "⏳ {who} hasn't marked “{text}” done yet (the reminder went {time}).",
  "household.listsTitle": "🛒 Shared lists:",
  "household.listChange": {
    one: "{who} added {count} item to *{list}*",
    other: "{who} added {count} items to *{list}*",
  },
  "household.ourTasks": "🏠 Our tasks:",
  "household.noOurTasks":
    "No shared tasks are open. To give one: “Dana: call the plumber”, or “remind Dana at 17:00 to pick up the kids”.",
  "household.taskFrom": "from {name}",
  "household.assigned": "📋 Gave {name} the task “{text}”. I'll tell you when it's done.",
  "household.reminded":
    "⏰ I'll remind {name} {when} ({name}'s time): “{text}”. I'll tell you when it's done.",
  "household.yourTime": "That's {time} for you.",
  "household.remindQuiet": "It falls in {name}'s quiet hours, so it will go when they end.",
  "household.remindHow":
    "When should I remind {name}? Say it with a day or a time, like “remind {name} at 17:00 to pick up the kids”.",
  "household.remindOnce":
    "For now I can set one-time reminders for {name}, not repeating ones. Say for example “remind {name} tomorrow at 8:00 to take the bins out”.",
  "household.remindBlocked": "{name} has turned off reminders and tasks from you.",
  "household.remindersOff":
    "OK, no more reminders or tasks from {name}. Say “allow reminders from {name}” to allow them again.",
  "household.remindersOn": "Reminders and tasks from {name} are allowed again.",
  "household.noticesOn":
    "🔔 I'll send you a short summary when others add to shared lists (never in your quiet hours). Say “turn off list notices” to stop.",
  "household.noticesOff": "🔕 No more notices about shared lists.",
  "household.what.name": "a name",
  "household.nameControls":
    "That name has hidden direction characters that make it show differently from how it is written. Please type the name with plain letters.",
  "household.nameTaken":
    "Someone in your household (or invited to it) is already called “{name}”. Invite them by another name, for example with their last name or an initial.",
  "household.invitationsWithdrawn": "Your open invitations ({names}) were withdrawn.",
  "household.ended": "With only you left, the household has ended.",
  "household.endedWithdrawn":
    "With only you left, the household has ended, and its open invitations ({names}) with it.",
  "household.notYet":
    "{name} hasn't accepted your invitation yet. Once they do, you can give them reminders and tasks.",
  "household.taskLimit": {
    one: "You've given {name} {count} reminder or task today, the most for one day. You can give more tomorrow.",
    other:
      "You've given {name} {count} reminders and tasks today, the most for one day. You can give more tomorrow.",
  },
  "household.openInvitations": "open invitations to a household (to accept)",
  "household.openInvitationsDecline":
    "open invitations to a household (to decline: no more invitations from whoever sent it)",
  "capability.household": "your household",
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
  "household.giveAsk": "לתת ל{name} את המשימה “{text}”? אעדכן אותם, ואותך כשהיא תבוצע.",
  "household.giveExplicit": "כדי לתת ל{name} משימה, כתוב/י “משימה ל{name}: …”.",
  "household.nobodyYet":
    "עוד אף אחד לא הצטרף למשק הבית שלך ({names} טרם אישר/ה). ברגע שמישהו יצטרף אפשר לשתף רשימות ולהזכיר אחד לשני.",
  "household.copyOffer": "{lists} כבר לא אצלך. כתוב/י “שמור עותק” בתוך שבוע כדי לשמור עותק משלך.",
  "household.copied": "📋 שמרתי לך עותק של {lists}. הוא שלך בלבד.",
  "household.noCopy": "אין ממה לשמור עותק: אפשר לשמור עותק של רשימות משותפות עד שבוע אחרי עזיבת משק בית.",
  "household.shared":
    "🏠 {who} שיתף/ה את הרשימה *{list}* עם משק הבית. כתוב/י “תראה את רשימת {list}” כדי לראות אותה, או “תוסיף חלב לרשימת {list}”.",
  "household.sharedList":
    "🏠 *{list}* משותפת עכשיו עם משק הבית ({names}): הם רואים אותה ויכולים לשנות את הפריטים. כתוב/י “תפסיק לשתף את {list}” כדי להפסיק.",
  "household.alreadyShared": "*{list}* כבר משותפת עם משק הבית ({names}).",
  "household.unshared": "*{list}* כבר לא משותפת; היא שוב רק שלך.",
  "household.notShared": "*{list}* לא משותפת.",
  "household.theirList":
    "*{list}* היא רשימה של {owner} ששותפה איתך; רק {owner} יכול/ה לשנות עם מי היא משותפת.",
  "household.noList": "אין לך רשימה בשם “{name}”. הרשימות שלך: {names}.",
  "household.noLists": "אין לך רשימה בשם “{name}”.",
  "household.newSharedList":
    "🏠 יצרתי את הרשימה *{list}*, משותפת עם משק הבית ({names}). אפשר להוסיף אליה: “תוסיף חלב לרשימת {list}”.",
  "household.listTaken": "כבר יש רשימה *{list}*. כדי לשתף אותה: “תשתף את {list} עם משק הבית”.",
  "household.task": "📋 {who} נתן/ה לך משימה: {text}\nאעדכן את {who} כשתסמן/י שהיא בוצעה.",
  "household.done": "✅ {who} סימן/ה ש“{text}” בוצע.",
  "household.stillOpen": "⏳ {who} עוד לא סימן/ה ש“{text}” בוצע (התזכורת נשלחה לפני שעה).",
  "household.stillOpenSince": "⏳ {who} עוד לא סימן/ה ש“{text}” בוצע (התזכורת נשלחה {time}).",
  "household.listsTitle": "🛒 רשימות משותפות:",
  "household.listChange": {
    one: "{who} הוסיף/ה פריט אחד לרשימה *{list}*",
    other: "{who} הוסיף/ה {count} פריטים לרשימה *{list}*",
  },
  "household.ourTasks": "🏠 המשימות שלנו:",
  "household.noOurTasks":
    "אין משימות משותפות פתוחות. כדי לתת משימה: “דנה: להתקשר לאינסטלטור”, או “תזכיר לדנה ב-17:00 לאסוף את הילדים”.",
  "household.taskFrom": "מ{name}",
  "household.assigned": "📋 נתתי ל{name} את המשימה “{text}”. אעדכן אותך כשהיא תבוצע.",
  "household.reminded": "⏰ אזכיר ל{name} {when} (לפי השעה אצל {name}): “{text}”. אעדכן אותך כשזה יבוצע.",
  "household.yourTime": "אצלך זה {time}.",
  "household.remindQuiet": "זה בשעות השקט של {name}, אז התזכורת תישלח כשהן ייגמרו.",
  "household.remindHow":
    "מתי להזכיר ל{name}? כתוב/י עם יום או שעה, למשל “תזכיר ל{name} ב-17:00 לאסוף את הילדים”.",
  "household.remindOnce":
    "בינתיים אפשר לקבוע ל{name} רק תזכורות חד-פעמיות, לא חוזרות. למשל: “תזכיר ל{name} מחר ב-8:00 להוציא את הזבל”.",
  "household.remindBlocked": "{name} כיבה/תה תזכורות ומשימות ממך.",
  "household.remindersOff":
    "בסדר, לא יגיעו עוד תזכורות או משימות מ{name}. כתוב/י “תאפשר תזכורות מ{name}” כדי לאפשר שוב.",
  "household.remindersOn": "תזכורות ומשימות מ{name} מותרות שוב.",
  "household.noticesOn":
    "🔔 אשלח לך סיכום קצר כשמישהו מוסיף לרשימות המשותפות (אף פעם לא בשעות השקט). כתוב/י “תפסיק לעדכן על רשימות” כדי להפסיק.",
  "household.noticesOff": "🔕 לא יגיעו עוד עדכונים על רשימות משותפות.",
  "household.what.name": "שם",
  "household.nameControls":
    "בשם הזה יש תווי כיוון נסתרים שגורמים לו להיראות אחרת ממה שנכתב. כתוב/י את השם באותיות רגילות.",
  "household.nameTaken":
    "כבר יש במשק הבית שלך (או בין המוזמנים) מישהו בשם “{name}”. הזמן/י אותו בשם אחר, למשל עם שם משפחה או אות.",
  "household.invitationsWithdrawn": "ההזמנות הפתוחות שלך ({names}) בוטלו.",
  "household.ended": "נשארת לבד, אז משק הבית הסתיים.",
  "household.endedWithdrawn": "נשארת לבד, אז משק הבית הסתיים, ואיתו ההזמנות הפתוחות שלו ({names}).",
  "household.notYet": "{name} עוד לא אישר/ה את ההזמנה שלך. ברגע שיאשרו, אפשר יהיה לתת להם תזכורות ומשימות.",
  "household.taskLimit": {
    one: "נתת היום ל{name} תזכורת או משימה אחת, המקסימום ליום. אפשר לתת עוד מחר.",
    other: "נתת היום ל{name} {count} תזכורות ומשימות, המקסימום ליום. אפשר לתת עוד מחר.",
  },
  "household.openInvitations": "הזמנות פתוחות למשק בית (לאישור)",
  "household.openInvitationsDecline": "הזמנות פתוחות למשק בית (לסירוב: לא יגיעו עוד הזמנות ממי ששלח אותה)",
  "capability.household": "משק הבית שלך",
};
