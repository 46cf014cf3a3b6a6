import type { Entry, Translation } from "./entries.js";

/** Connecting and disconnecting the user's Google account. */
export const GOOGLE_EN = {
  "google.connected": "Google is connected ✅ I can now use your calendar and Gmail.",
  "google.link": "Open this link to connect your Google account (it works once, for 15 minutes):\n{url}",
  "google.connectWithLink":
    "To use {capability} I need access to your Google account. Connect it here (the link works once, for 15 minutes):\n{url}",
  "google.notConfigured":
    "Google isn't set up on this Memo server (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET; see docs/GOOGLE.md), so I can't connect your account. Calendar requests still work with Memo's built-in calendar.",
  "google.alreadyConnected":
    'Your Google account is already connected ✅ To connect a different one, say "disconnect Google" first.',
  "google.disconnected":
    'Google is disconnected: I deleted your Google tokens. Say "connect Google" to connect again.',
  "google.notConnected": "Your Google account wasn't connected, so there was nothing to disconnect.",
  "google.lost":
    "I lost access to your Google account (the permission was revoked or expired). To use {capability} again, reconnect here (the link works once, for 15 minutes):\n{url}",
  "google.lostNoLink":
    'I lost access to your Google account (the permission was revoked or expired). Say "connect Google" to reconnect.',
  "google.connectedAs": "Google is connected ✅ ({email}) I can now use your calendar and Gmail.",
  "google.connectedWithoutGmail":
    'Google is connected{account}, but you didn\'t allow Gmail, so I can\'t use your email. To allow it, say "disconnect Google", then "connect Google", and tick Gmail on Google\'s page.',
  "google.connectedWithoutCalendar":
    'Google is connected{account}, but you didn\'t allow your calendar, so I can\'t use Google Calendar. To allow it, say "disconnect Google", then "connect Google", and tick the calendar on Google\'s page.',
  "google.connectedWithoutBoth":
    'Google is connected{account}, but you didn\'t allow your calendar or Gmail, so I can\'t use them. To allow them, say "disconnect Google", then "connect Google", and tick both on Google\'s page.',
  "google.builtInEvents": {
    one: "You have 1 event in my own calendar; it stays there and comes back if you disconnect Google, but it won't show in Google Calendar.",
    other:
      "You have {count} events in my own calendar; they stay there and come back if you disconnect Google, but they won't show in Google Calendar.",
  },
  // The pages the browser shows while connecting Google ({number}: the masked WhatsApp number; one paragraph a line)
  "googlePage.confirm.title": "Connect Google to Memo",
  "googlePage.confirm.body":
    "This connects your Google account to Memo for the WhatsApp number {number}.\nOnly continue if this is your number. If it is not, close this page: continuing would give whoever uses that number access to your calendar and email.",
  "googlePage.connected.title": "Google is connected",
  "googlePage.connected.body":
    "It is connected to the WhatsApp number {number}. You can go back to WhatsApp.",
  "googlePage.invalid.title": "This link is not valid",
  "googlePage.invalid.body": 'Write "connect Google" to Memo in WhatsApp for a new link.',
  "googlePage.expired.title": "This link has expired",
  "googlePage.expired.body": 'Write "connect Google" to Memo in WhatsApp for a new link.',
  "googlePage.used.title": "This link was already used",
  "googlePage.used.body": 'Write "connect Google" to Memo in WhatsApp for a new link.',
  "googlePage.browser.title": "This link was opened in another browser",
  "googlePage.browser.body":
    'Nothing was connected. For your safety, Google can only be connected in the browser where the connect link was opened: write "connect Google" to Memo in WhatsApp and open the new link on this device.',
  "googlePage.crossSite.title": "This page was sent from another site",
  "googlePage.crossSite.body":
    'Nothing was connected. Open the link Memo sent you in WhatsApp, or write "connect Google" to Memo for a new one.',
  "googlePage.denied.title": "Google was not connected",
  "googlePage.denied.body":
    "Access was not granted. You can try the same link again, or go back to WhatsApp.",
  "googlePage.failed.title": "Google could not be connected",
  "googlePage.failed.body": 'Something went wrong. Write "connect Google" to Memo in WhatsApp to try again.',
  "googlePage.continue": "Continue to Google",
} as const satisfies Record<string, Entry>;

export const GOOGLE_HE = {
  "google.connected": "גוגל מחובר ✅ עכשיו אני יכול להשתמש ביומן וב-Gmail שלך.",
  "google.link": "אפשר לפתוח את הקישור הזה כדי לחבר את חשבון הגוגל שלך (הוא עובד פעם אחת, ל-15 דקות):\n{url}",
  "google.connectWithLink":
    "כדי להשתמש ב{capability} אני צריך גישה לחשבון הגוגל שלך. אפשר לחבר אותו כאן (הקישור עובד פעם אחת, ל-15 דקות):\n{url}",
  "google.notConfigured":
    "גוגל לא מוגדר בשרת הממו הזה (GOOGLE_CLIENT_ID ו-GOOGLE_CLIENT_SECRET; ראו docs/GOOGLE.md), אז אי אפשר לחבר את החשבון שלך. בקשות יומן עדיין עובדות עם היומן המובנה של ממו.",
  "google.alreadyConnected": 'חשבון הגוגל שלך כבר מחובר ✅ כדי לחבר חשבון אחר, כתבו קודם "נתק גוגל".',
  "google.disconnected": 'גוגל נותק: מחקתי את הגישה לחשבון הגוגל שלך. כתבו "חבר גוגל" כדי לחבר שוב.',
  "google.notConnected": "חשבון הגוגל שלך לא היה מחובר, אז לא היה מה לנתק.",
  "google.lost":
    "איבדתי את הגישה לחשבון הגוגל שלך (ההרשאה בוטלה או פגה). כדי להשתמש שוב ב{capability}, אפשר לחבר מחדש כאן (הקישור עובד פעם אחת, ל-15 דקות):\n{url}",
  "google.lostNoLink":
    'איבדתי את הגישה לחשבון הגוגל שלך (ההרשאה בוטלה או פגה). כתבו "חבר גוגל" כדי לחבר מחדש.',
  "google.connectedAs": "גוגל מחובר ✅ ({email}) עכשיו אני יכול להשתמש ביומן וב-Gmail שלך.",
  "google.connectedWithoutGmail":
    'גוגל מחובר{account}, אבל לא אישרת גישה ל-Gmail, אז אין לי גישה למייל שלך. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את Gmail בדף של גוגל.',
  "google.connectedWithoutCalendar":
    'גוגל מחובר{account}, אבל לא אישרת גישה ליומן, אז אין לי גישה ליומן גוגל שלך. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את היומן בדף של גוגל.',
  "google.connectedWithoutBoth":
    'גוגל מחובר{account}, אבל לא אישרת גישה ליומן ול-Gmail, אז אין לי גישה אליהם. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את היומן ואת Gmail בדף של גוגל.',
  "google.builtInEvents": {
    one: "יש לך אירוע אחד ביומן שלי; הוא נשאר שם וחוזר אם מנתקים את גוגל, אבל הוא לא יופיע ביומן גוגל.",
    other:
      "יש לך {count} אירועים ביומן שלי; הם נשארים שם וחוזרים אם מנתקים את גוגל, אבל הם לא יופיעו ביומן גוגל.",
  },
  "googlePage.confirm.title": "חיבור גוגל לממו",
  "googlePage.confirm.body":
    "הפעולה הזו מחברת את חשבון הגוגל שלכם לממו עבור מספר הוואטסאפ {number}.\nהמשיכו רק אם זה המספר שלכם. אם לא, סגרו את הדף: המשך ייתן למי שמשתמש במספר הזה גישה ליומן ולמייל שלכם.",
  "googlePage.connected.title": "גוגל מחובר",
  "googlePage.connected.body": "הוא מחובר למספר הוואטסאפ {number}. אפשר לחזור לוואטסאפ.",
  "googlePage.invalid.title": "הקישור הזה לא תקין",
  "googlePage.invalid.body": 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.',
  "googlePage.expired.title": "תוקף הקישור פג",
  "googlePage.expired.body": 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.',
  "googlePage.used.title": "כבר השתמשו בקישור הזה",
  "googlePage.used.body": 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.',
  "googlePage.browser.title": "הקישור נפתח בדפדפן אחר",
  "googlePage.browser.body":
    'שום דבר לא חובר. מטעמי אבטחה אפשר לחבר את גוגל רק בדפדפן שבו נפתח קישור החיבור: כתבו "חבר גוגל" לממו בוואטסאפ ופתחו את הקישור החדש במכשיר הזה.',
  "googlePage.crossSite.title": "הדף הזה נשלח מאתר אחר",
  "googlePage.crossSite.body":
    'שום דבר לא חובר. פתחו את הקישור שממו שלח לכם בוואטסאפ, או כתבו "חבר גוגל" לממו כדי לקבל קישור חדש.',
  "googlePage.denied.title": "גוגל לא חובר",
  "googlePage.denied.body": "לא ניתנה גישה. אפשר לנסות שוב עם אותו קישור, או לחזור לוואטסאפ.",
  "googlePage.failed.title": "לא הצלחתי לחבר את גוגל",
  "googlePage.failed.body": 'משהו השתבש. כתבו "חבר גוגל" לממו בוואטסאפ כדי לנסות שוב.',
  "googlePage.continue": "המשיכו לגוגל",
} as const satisfies Translation<typeof GOOGLE_EN>;
