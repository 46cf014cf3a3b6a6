import type { Entry, Translation } from "./entries.js";

/** Taking back the last change ("undo"). */
export const UNDO_EN = {
  "undo.hint": "Reply *undo* to bring it back.",
  "undo.done": "↩️ Undone — back as it was: {what}.",
  "undo.nothing": "There's nothing more to undo.",
  "undo.already": "Your last change ({what}) is already undone. Undo takes back only the latest change.",
  "undo.expired":
    "It's too late to undo the last change ({what}): changes can be undone for {minutes} minutes.",
  "undo.lateReminder": "⏰ Its reminder time passed meanwhile, so I'm sending it now.",
  "undo.notRestored": "I couldn't bring back on Google Calendar: {names}.",
  "undo.what.task": "the task “{text}”",
  "undo.what.tasks": {
    one: "1 task",
    other: "{count} tasks",
  },
  "undo.what.list": "the list “{text}”",
  "undo.what.lists": {
    one: "1 list",
    other: "{count} lists",
  },
  "undo.what.item": "the item “{text}”",
  "undo.what.items": {
    one: "1 item",
    other: "{count} items",
  },
  "undo.what.note": "the note “{text}”",
  "undo.what.notes": {
    one: "1 note",
    other: "{count} notes",
  },
  "undo.what.event": "the event “{text}”",
  "undo.what.events": {
    one: "1 event",
    other: "{count} events",
  },
  "undo.cannot.email": "I can't unsend an email — it has already gone out. Nothing else was changed.",
  "undo.cannot.gmail":
    "I can't undo a change in Gmail — please change it back in Gmail. Nothing else was changed.",
  "undo.cannot.settings":
    "I can't undo a settings change — just tell me the setting you want again (like “quiet hours 22:00-07:00” or “change my time zone to London”). Nothing else was changed.",
  "undo.cannot.forgotten":
    "I can't bring back what you asked me to forget — it's gone for good. Nothing else was changed.",
  "undo.cannot.google":
    "I can't undo disconnecting Google — say “connect Google” to connect it again. Nothing else was changed.",
  "undo.cannot.untracked":
    "I couldn't keep a copy of that last change, so I can't take it back. Nothing else was changed.",
  "undo.cannot.household":
    "I can't undo a household change (a list shared, a task or reminder given, someone invited or a household left) — just tell me what you want now, like “stop sharing the shopping list”. Nothing else was changed.",
  "undo.removed": "↩️ Removed {what} you added.",
  "undo.failed": "I couldn't bring back {what} — something it needed is gone. Nothing was changed.",
  "undo.notQuoted":
    "The message you replied to isn't about your latest change, so I didn't undo anything. What should I cancel? To take back your latest change, send *undo* without replying to a message.",
  "undo.what.change": "the change “{text}”",
  "undo.what.changes": {
    one: "1 change",
    other: "{count} changes",
  },
  "undo.ask": {
    one: "Your last change was {change}, {count} message ago. Undo it?",
    other: "Your last change was {change}, {count} messages ago. Undo it?",
  },
  "undo.askEarlier": "Your last change was {change}, a few messages ago. Undo it?",
  "undo.change.create": "creating {what}",
  "undo.change.delete": "deleting {what}",
  "undo.change.change": "changing {what}",
  "undo.change.complete": "marking {what} done",
  "undo.change.clear": "clearing *{list}*",
  "undo.change.add": "adding {what} to *{list}*",
  "undo.change.tick": "ticking {what} on *{list}*",
  "undo.change.untick": "unticking {what} on *{list}*",
  "undo.change.remove": "removing {what} from *{list}*",
  "undo.change.items": {
    one: "{change} (1 item)",
    other: "{change} ({count} items)",
  },
  "undo.did.clear": "cleared *{list}*",
  "undo.did.deleteList": "deleted the list *{list}*",
  "undo.did.list": "changed *{list}*",
  "undo.did.other": "changed {what}",
  "undo.changedBy": "{who} {did} since, so I can't undo your change to {what}. Nothing was changed.",
  "undo.changedBySomeone":
    "Someone else changed it since, so I can't undo your change to {what}. Nothing was changed.",
  "undo.changedSince": "It changed since, so I can't undo your change to {what}. Nothing was changed.",
  "undo.unshared":
    "*{list}* is no longer shared with you, so I can't undo your change to it. Nothing was changed.",
  "undo.unsharedList":
    "That list is no longer shared with you, so I can't undo your change to it. Nothing was changed.",
} as const satisfies Record<string, Entry>;

export const UNDO_HE = {
  "undo.hint": "ענו *בטל* כדי להחזיר.",
  "undo.done": "↩️ בוטל — חזר למצב הקודם: {what}.",
  "undo.nothing": "אין עוד מה לבטל.",
  "undo.already": "השינוי האחרון ({what}) כבר בוטל. אפשר לבטל רק את השינוי האחרון.",
  "undo.expired": "כבר מאוחר מדי לבטל את השינוי האחרון ({what}): אפשר לבטל שינוי עד {minutes} דקות אחריו.",
  "undo.lateReminder": "⏰ זמן התזכורת עבר בינתיים, אז אני שולח אותה עכשיו.",
  "undo.notRestored": "לא הצלחתי להחזיר ביומן גוגל: {names}.",
  "undo.what.task": "המשימה „{text}”",
  "undo.what.tasks": {
    one: "משימה אחת",
    other: "{count} משימות",
  },
  "undo.what.list": "הרשימה „{text}”",
  "undo.what.lists": {
    one: "רשימה אחת",
    other: "{count} רשימות",
  },
  "undo.what.item": "הפריט „{text}”",
  "undo.what.items": {
    one: "פריט אחד",
    other: "{count} פריטים",
  },
  "undo.what.note": "הפתק „{text}”",
  "undo.what.notes": {
    one: "פתק אחד",
    other: "{count} פתקים",
  },
  "undo.what.event": "האירוע „{text}”",
  "undo.what.events": {
    one: "אירוע אחד",
    other: "{count} אירועים",
  },
  "undo.cannot.email": "אי אפשר לבטל שליחה של מייל — הוא כבר נשלח. שום דבר אחר לא השתנה.",
  "undo.cannot.gmail":
    "אני לא יכול לבטל שינוי בג׳ימייל — אפשר להחזיר אותו בג׳ימייל עצמו. שום דבר אחר לא השתנה.",
  "undo.cannot.settings":
    "אני לא יכול לבטל שינוי הגדרות — פשוט כתבו לי שוב את ההגדרה שתרצו (למשל „שעות שקט 22-7” או „תשנה את אזור הזמן ללונדון”). שום דבר אחר לא השתנה.",
  "undo.cannot.forgotten": "אני לא יכול להחזיר את מה שביקשת שאשכח — זה נמחק לגמרי. שום דבר אחר לא השתנה.",
  "undo.cannot.google":
    "אני לא יכול לבטל את הניתוק מגוגל — כתבו „חבר גוגל” כדי להתחבר שוב. שום דבר אחר לא השתנה.",
  "undo.cannot.untracked":
    "לא הצלחתי לשמור עותק של השינוי האחרון, אז אי אפשר לבטל אותו. שום דבר אחר לא השתנה.",
  "undo.cannot.household":
    "אני לא יכול לבטל שינוי במשק הבית (רשימה ששותפה, משימה או תזכורת שניתנה, הזמנה או עזיבה) — פשוט כתבו לי מה לעשות עכשיו, למשל „תפסיק לשתף את רשימת קניות”. שום דבר אחר לא השתנה.",
  "undo.removed": "↩️ הסרתי את {what} שהוספת.",
  "undo.failed": "לא הצלחתי להחזיר את {what} — משהו שהיה דרוש לזה כבר לא קיים. שום דבר לא השתנה.",
  "undo.notQuoted":
    "ההודעה שהגבת עליה לא קשורה לשינוי האחרון, אז לא ביטלתי כלום. מה לבטל? כדי לבטל את השינוי האחרון, שלחו *בטל* בלי להגיב להודעה.",
  "undo.what.change": "השינוי „{text}”",
  "undo.what.changes": {
    one: "שינוי אחד",
    other: "{count} שינויים",
  },
  "undo.ask": {
    one: "השינוי האחרון שלך היה {change}, לפני הודעה אחת. לבטל אותו?",
    other: "השינוי האחרון שלך היה {change}, לפני {count} הודעות. לבטל אותו?",
  },
  "undo.askEarlier": "השינוי האחרון שלך היה {change}, לפני כמה הודעות. לבטל אותו?",
  "undo.change.create": "יצירת {what}",
  "undo.change.delete": "מחיקת {what}",
  "undo.change.change": "שינוי {what}",
  "undo.change.complete": "סימון „בוצע” על {what}",
  "undo.change.clear": "ניקוי הרשימה *{list}*",
  "undo.change.add": "הוספת {what} לרשימה *{list}*",
  "undo.change.tick": "סימון {what} ברשימה *{list}*",
  "undo.change.untick": "ביטול הסימון של {what} ברשימה *{list}*",
  "undo.change.remove": "הסרת {what} מהרשימה *{list}*",
  "undo.change.items": {
    one: "{change} (פריט אחד)",
    other: "{change} ({count} פריטים)",
  },
  "undo.did.clear": "ניקה/תה את *{list}*",
  "undo.did.deleteList": "מחק/ה את הרשימה *{list}*",
  "undo.did.list": "שינה/תה את *{list}*",
  "undo.did.other": "שינה/תה את {what}",
  "undo.changedBy": "{who} {did} מאז, אז אני לא יכול לבטל את מה ששינית ({what}). שום דבר לא השתנה.",
  "undo.changedBySomeone":
    "מישהו אחר שינה את זה מאז, אז אני לא יכול לבטל את מה ששינית ({what}). שום דבר לא השתנה.",
  "undo.changedSince": "זה השתנה מאז, אז אני לא יכול לבטל את מה ששינית ({what}). שום דבר לא השתנה.",
  "undo.unshared":
    "הרשימה *{list}* כבר לא משותפת איתך, אז אני לא יכול לבטל את מה ששינית בה. שום דבר לא השתנה.",
  "undo.unsharedList": "הרשימה כבר לא משותפת איתך, אז אני לא יכול לבטל את מה ששינית בה. שום דבר לא השתנה.",
} as const satisfies Translation<typeof UNDO_EN>;
