import type { Translation } from "./entries.js";

/** What a document proposes, offered back as a numbered list and answered by number (issue 37). */
export const OFFERS_EN = {
  "offers.heading": "📌 From “{title}” — add to your calendar or reminders:",
  "offers.event": "{n}. {title}, {when}",
  "offers.reminder": "{n}. ⏰ {title}, by {when}",
  "offers.question": "{n}. ❓ {title} (no exact date given: I'll ask when)",
  "offers.timeUnread": "{n}. ❓ {title}, {when} (I couldn't read the time whole: I'll ask when)",
  "offers.footer": "Reply with the numbers, “all” or “none”.",
  "offers.added": "✅ Added from “{title}”:",
  "offers.addedEvent": "📅 {title}, {when}",
  "offers.addedReminder": "⏰ {title}, {when}",
  "offers.none": "OK, I didn't add anything.",
  "offers.passed": "Not added: {titles} — its time has already passed.",
  "offers.noSuchNumber": {
    one: "There's no {numbers} in the list: it has only item 1. Reply with its number, “all” or “none”.",
    other:
      "There's no {numbers} in the list: it has items 1–{count}. Reply with the numbers, “all” or “none”.",
  },
  "offers.askWhen": "When is “{title}”? (e.g. “Tuesday 16 March at 18:00”)",
  "offers.addedBeforeQuestion": "✅ Added {numbers}.",
  "offers.saved": "📝 Saved “{title}” as a note.",
  "offers.nothingToSave": "There's no forwarded message or long text just before this to save.",
} as const;

export const OFFERS_HE = {
  "offers.heading": "📌 מתוך „{title}” — להוסיף ליומן או לתזכורות?",
  "offers.event": "{n}. {title}, {when}",
  "offers.reminder": "{n}. ⏰ {title}, עד {when}",
  "offers.question": "{n}. ❓ {title} (לא צוין תאריך מדויק: אשאל מתי)",
  "offers.timeUnread": "{n}. ❓ {title}, {when} (לא הצלחתי לקרוא את השעה במלואה: אשאל מתי)",
  "offers.footer": "ענו במספרים, „הכל” או „אף אחד”.",
  "offers.added": "✅ הוספתי מתוך „{title}”:",
  "offers.addedEvent": "📅 {title}, {when}",
  "offers.addedReminder": "⏰ {title}, {when}",
  "offers.none": "בסדר, לא הוספתי כלום.",
  "offers.passed": "לא הוספתי את {titles} — המועד כבר עבר.",
  "offers.noSuchNumber": {
    one: "אין {numbers} ברשימה: יש בה רק פריט 1. ענו במספר, „הכל” או „אף אחד”.",
    other: "אין {numbers} ברשימה: יש בה פריטים 1–{count}. ענו במספרים, „הכל” או „אף אחד”.",
  },
  "offers.askWhen": "מתי „{title}”? (למשל „יום שלישי 16 במרץ ב-18:00”)",
  "offers.addedBeforeQuestion": "✅ הוספתי את {numbers}.",
  "offers.saved": "📝 שמרתי את „{title}” כפתק.",
  "offers.nothingToSave": "אין לפני זה הודעה מועברת או טקסט ארוך לשמור.",
} as const satisfies Translation<typeof OFFERS_EN>;
