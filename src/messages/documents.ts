import type { Translation } from "./entries.js";

/** Documents (issue 37): a PDF, Word or text file kept as a note, listed, found and forgotten. */
export const DOCUMENTS_EN = {
  "documents.alreadySaved": '📄 You sent me this file before: it\'s in your notes as "{title}".',
  "documents.saved": {
    one: '📄 Saved "{title}" (1 page) to your notes. Ask me about it, or say "search notes …".',
    other: '📄 Saved "{title}" ({count} pages) to your notes. Ask me about it, or say "search notes …".',
  },
  "documents.savedText": '📄 Saved "{title}" to your notes. Ask me about it, or say "search notes …".',
  "documents.unsupported":
    "I can read PDF, Word (.docx) and text files (.txt, .md, .csv). Could you send it as one of those?",
  "documents.unreadable":
    "I couldn't read the text of that file: it may be a scan or a photo, or damaged. Could you send it as a PDF or Word file with text, or type what matters?",
  "documents.unavailable":
    "I can't open documents right now (no WhatsApp media access). Could you paste the text?",
  "documents.listHeading": "📄 Your documents ({total}):",
  "documents.listEmpty": "You have no documents yet. Send me a PDF, Word or text file and I'll keep it.",
  "documents.listMore": "…and {more} more.",
  "documents.listHint": 'Ask me about one, or say "forget document 1".',
  "documents.pages": { one: "1 page", other: "{count} pages" },
  "documents.deleted": '🗑️ Deleted the document "{title}" with its text.',
  "documents.notFound": "I couldn't find a document matching “{query}”.",
  "documents.page": "p. {page}",
  "documents.confirmDelete":
    'Delete the document "{title}" with all its text? This can\'t be undone. (yes / no)',
  "documents.untitled": "Document",
  "documents.cutShort": "It was long, so I kept only its beginning: the rest was cut short.",
  "documents.readFirstPages": "I read the first {read} of its {total} pages.",
} as const;

export const DOCUMENTS_HE = {
  "documents.alreadySaved": "📄 את הקובץ הזה כבר שלחת לי: הוא בפתקים שלך בשם „{title}”.",
  "documents.saved": {
    one: "📄 שמרתי את „{title}” (עמוד אחד) בפתקים שלך. אפשר לשאול אותי עליו, או לכתוב „חפש בפתקים …”.",
    other:
      "📄 שמרתי את „{title}” ({count} עמודים) בפתקים שלך. אפשר לשאול אותי עליו, או לכתוב „חפש בפתקים …”.",
  },
  "documents.savedText": "📄 שמרתי את „{title}” בפתקים שלך. אפשר לשאול אותי עליו, או לכתוב „חפש בפתקים …”.",
  "documents.unsupported":
    "אני יודע לקרוא קובצי PDF, וורד (‎.docx) וטקסט (‎.txt, ‎.md, ‎.csv). אפשר לשלוח אותו באחד מהם?",
  "documents.unreadable":
    "לא הצלחתי לקרוא את הטקסט של הקובץ: אולי זו סריקה או תמונה, או שהוא פגום. אפשר לשלוח אותו כ-PDF או קובץ וורד עם טקסט, או לכתוב לי מה חשוב בו?",
  "documents.unavailable": "אני לא יכול לפתוח מסמכים כרגע (אין גישה למדיה של וואטסאפ). אפשר להדביק את הטקסט?",
  "documents.listHeading": "📄 המסמכים שלך ({total}):",
  "documents.listEmpty": "אין לך עדיין מסמכים. אפשר לשלוח לי קובץ PDF, וורד או טקסט ואשמור אותו.",
  "documents.listMore": "…ועוד {more}.",
  "documents.listHint": "אפשר לשאול אותי על אחד מהם, או לכתוב „תשכח מסמך 1”.",
  "documents.pages": { one: "עמוד אחד", other: "{count} עמודים" },
  "documents.deleted": "🗑️ מחקתי את המסמך „{title}” עם הטקסט שלו.",
  "documents.notFound": "לא מצאתי מסמך שמתאים ל„{query}”.",
  "documents.page": "עמ׳ {page}",
  "documents.confirmDelete": "למחוק את המסמך „{title}” עם כל הטקסט שלו? אי אפשר לבטל את זה. (כן / לא)",
  "documents.untitled": "מסמך",
  "documents.cutShort": "הוא היה ארוך, אז שמרתי רק את ההתחלה שלו: השאר נחתך.",
  "documents.readFirstPages": "קראתי את {read} העמודים הראשונים מתוך {total}.",
} as const satisfies Translation<typeof DOCUMENTS_EN>;
