// The llm_calls bench's scenario corpus: two users' conversations (one in English, one in Hebrew),
// in order, across tasks, reminders, lists, calendar, notes, memory, small talk and questions about
// Memo. Each message carries the answers a model would give to the calls its turn makes, by call
// kind; a message with none must be decided with no call at all (fast path or template). The bench
// fails when a turn makes a call its entry does not script, or leaves a scripted answer unused, so
// the corpus stays what the graph really does.
import type { PlannerAnswer } from "../src/prompts/plannerPrompt.js";
import type { ScriptedReply } from "../tests/support/scriptedOpenAI.js";
import type { CallKind } from "./llmRequests.js";

type Area =
  "tasks" | "reminders" | "lists" | "calendar" | "notes" | "memory" | "small_talk" | "meta" | "mixed";

export interface Scenario {
  area: Area;
  /** Whose conversation it belongs to. */
  user: "en" | "he";
  text: string;
  /** Answers of the turn's calls by kind, used in order within a kind; none: the turn makes no call. */
  llm?: Partial<Record<CallKind, ScriptedReply[]>>;
}

type Step = PlannerAnswer["plan"][number];

const step = (
  id: string,
  capability: Step["capability"],
  action: string,
  extra: Partial<Step> = {},
): Step => ({
  id,
  capability,
  action,
  constraints: {},
  changes: {},
  dependsOn: [],
  ...extra,
});

/** The planner's answer: a confident, low-risk plan of `steps`. */
function planned(steps: Step[], extra: Partial<PlannerAnswer> = {}): ScriptedReply[] {
  return [
    {
      json: {
        intentType: "operation",
        confidence: 0.95,
        riskLevel: "low",
        needsApproval: false,
        missingFields: [],
        clarificationQuestion: null,
        plan: steps,
        ...extra,
      } satisfies PlannerAnswer,
    },
  ];
}

const json = (...answers: Record<string, unknown>[]): ScriptedReply[] => answers.map((a) => ({ json: a }));
const text = (...answers: string[]): ScriptedReply[] => answers.map((a) => ({ text: a }));
const chat = (action = "answer_question") =>
  planned([step("s1", "general", action)], { intentType: "conversation" });

export const SCENARIOS: Scenario[] = [
  // ---- English ----
  { area: "small_talk", user: "en", text: "Hi!" },
  { area: "meta", user: "en", text: "what can you do?" },
  { area: "reminders", user: "en", text: "remind me tomorrow morning to call the bank" },
  {
    area: "reminders",
    user: "en",
    text: "can you remind me to call the dentist about the crown after lunch, say 2pm?",
    llm: {
      planner: planned([step("s1", "database", "create_task", { changes: { when: "2pm" } })]),
      "resolver:tasks": json({
        operation: "create",
        text: "call the dentist about the crown",
        dueDate: "today at 14:00",
      }),
    },
  },
  { area: "reminders", user: "en", text: "remind me every Sunday at 20:00 to put the bins out" },
  {
    area: "tasks",
    user: "en",
    text: "I need to renew my passport before the trip in April, put it on my to-do list",
    llm: {
      planner: planned([step("s1", "database", "create_task")]),
      "resolver:tasks": json({ operation: "create", text: "renew my passport", category: "personal" }),
    },
  },
  { area: "tasks", user: "en", text: "my tasks" },
  {
    area: "tasks",
    user: "en",
    text: "actually make the dentist call at 11 instead",
    llm: {
      planner: planned([
        step("s1", "database", "update_task", { constraints: { text: "dentist" }, changes: { when: "11" } }),
      ]),
      "resolver:tasks": json({ operation: "update", text: "dentist", dueDate: "11:00" }),
    },
  },
  {
    area: "lists",
    user: "en",
    text: "start a shopping list with milk, eggs and bread",
    llm: {
      planner: planned([step("s1", "database", "create_list")]),
      "resolver:lists": json({ operation: "create", listName: "Shopping", items: ["milk", "eggs", "bread"] }),
    },
  },
  {
    area: "lists",
    user: "en",
    text: "add 2 avocados and a bag of rice to the shopping list",
    llm: {
      planner: planned([step("s1", "database", "add_list_item")]),
      "resolver:lists": json({
        operation: "addItem",
        listName: "shopping",
        items: ["2 avocados", "a bag of rice"],
      }),
    },
  },
  {
    area: "lists",
    user: "en",
    text: "I got the eggs, tick them off",
    llm: {
      planner: planned([step("s1", "database", "toggle_list_item")]),
      "resolver:lists": json({ operation: "toggleItem", listName: "shopping", item: "eggs", checked: true }),
    },
  },
  { area: "lists", user: "en", text: "show my lists" },
  {
    area: "calendar",
    user: "en",
    text: "Add a meeting with Dana tomorrow at 14:00",
    llm: {
      planner: planned([step("s1", "calendar", "create_event")]),
      "resolver:calendar_mutate": json({
        operation: "create",
        summary: "Meeting with Dana",
        start: "tomorrow at 14:00",
      }),
    },
  },
  {
    area: "calendar",
    user: "en",
    text: "could you push the Dana meeting to 16:00?",
    llm: {
      planner: planned([
        step("s1", "calendar", "update_event", {
          constraints: { summary: "Dana" },
          changes: { start: "16:00" },
        }),
      ]),
      "resolver:calendar_mutate": json({
        operation: "update",
        searchCriteria: { summary: "Dana" },
        updateFields: { start: "16:00" },
      }),
    },
  },
  {
    area: "calendar",
    user: "en",
    text: "yoga every Monday and Wednesday from 19:00 to 20:00 please",
    llm: {
      planner: planned([step("s1", "calendar", "create_recurring_event")]),
      "resolver:calendar_mutate": json({
        operation: "createRecurring",
        summary: "Yoga",
        frequency: "weekly",
        days: ["Monday", "Wednesday"],
        startTime: "19:00",
        endTime: "20:00",
      }),
    },
  },
  { area: "calendar", user: "en", text: "what's on my calendar tomorrow?" },
  {
    area: "calendar",
    user: "en",
    text: "do I have anything on Sunday afternoon?",
    llm: {
      planner: planned([
        step("s1", "calendar", "list_events", { constraints: { when: "Sunday afternoon" } }),
      ]),
      "resolver:calendar_find": json({
        operation: "getEvents",
        timeMin: "Sunday 12:00",
        timeMax: "Sunday 18:00",
      }),
    },
  },
  {
    area: "calendar",
    user: "en",
    text: "how does the rest of my week look?",
    llm: {
      planner: planned([step("s1", "calendar", "analyze_schedule")]),
      "resolver:calendar_find": json({
        operation: "analyzeSchedule",
        timeMin: "2026-03-05",
        timeMax: "2026-03-07",
      }),
    },
  },
  {
    area: "notes",
    user: "en",
    text: "could you jot down that the cabin wifi is PineTree77",
    llm: {
      planner: planned([step("s1", "second-brain", "store_note")]),
      "resolver:notes": json({
        operation: "store",
        content: "Wifi password at the cabin: PineTree77",
        category: "wifi",
      }),
    },
  },
  { area: "notes", user: "en", text: "note: Dana's shoe size is 38" },
  {
    area: "notes",
    user: "en",
    text: "what's the wifi password at the cabin?",
    llm: {
      planner: planned([step("s1", "second-brain", "search_notes")]),
      "resolver:notes": json({ operation: "search", query: "cabin wifi password" }),
      "notes:answer": text("The cabin's wifi password is PineTree77 [1]."),
    },
  },
  {
    area: "memory",
    user: "en",
    text: "I prefer morning meetings, afternoons are for deep work",
    llm: {
      planner: chat(),
      "resolver:general": text("Got it: meetings in the morning, afternoons kept for deep work."),
      "memory:facts": json({
        facts: [{ message: 1, type: "preference", content: "Prefers morning meetings", importance: 0.6 }],
      }),
    },
  },
  { area: "memory", user: "en", text: "what do you remember about me?" },
  {
    area: "small_talk",
    user: "en",
    text: "what's a good name for a grey kitten?",
    llm: {
      planner: chat(),
      "resolver:general": text("How about Smokey, Ash or Pebble? 🐱"),
    },
  },
  {
    area: "mixed",
    user: "en",
    text: "remind me at 18:00 to leave for the airport, and make a packing list with passport and charger",
    llm: {
      planner: planned([step("s1", "database", "create_task"), step("s2", "database", "create_list")]),
      "resolver:tasks": json({
        operation: "create",
        text: "leave for the airport",
        dueDate: "today at 18:00",
      }),
      "resolver:lists": json({ operation: "create", listName: "Packing", items: ["passport", "charger"] }),
    },
  },
  { area: "small_talk", user: "en", text: "thanks!" },

  // ---- Hebrew ----
  { area: "small_talk", user: "he", text: "היי" },
  { area: "reminders", user: "he", text: "תזכיר לי מחר ב-9 להתקשר לאמא" },
  {
    area: "reminders",
    user: "he",
    text: "תזכירי לי לקנות מתנה לנועה לפני יום שישי",
    llm: {
      planner: planned([step("s1", "database", "create_task")]),
      "resolver:tasks": json({ operation: "create", text: "לקנות מתנה לנועה", dueDate: "ביום חמישי ב-10" }),
    },
  },
  {
    area: "reminders",
    user: "he",
    text: "תזכיר לי כל יום ראשון ורביעי ב-18:00 להוציא את הזבל",
  },
  { area: "tasks", user: "he", text: "מה המשימות שלי?" },
  {
    area: "tasks",
    user: "he",
    text: "תעביר את ההתקשרות לאמא לשעה 11",
    llm: {
      planner: planned([step("s1", "database", "update_task", { constraints: { text: "אמא" } })]),
      "resolver:tasks": json({ operation: "update", text: "אמא", dueDate: "11:00" }),
    },
  },
  {
    area: "lists",
    user: "he",
    text: "תפתח לי רשימת קניות עם חלב וביצים",
    llm: {
      planner: planned([step("s1", "database", "create_list")]),
      "resolver:lists": json({ operation: "create", listName: "קניות", items: ["חלב", "ביצים"] }),
    },
  },
  {
    area: "lists",
    user: "he",
    text: "תוסיף לרשימת קניות עגבניות ומלפפונים",
    llm: {
      planner: planned([step("s1", "database", "add_list_item")]),
      "resolver:lists": json({
        operation: "addItem",
        listName: "רשימת קניות",
        items: ["עגבניות", "מלפפונים"],
      }),
    },
  },
  {
    area: "lists",
    user: "he",
    text: "תוריד את המלפפונים מהקניות",
    llm: {
      planner: planned([step("s1", "database", "delete_list_item")]),
      "resolver:lists": json({ operation: "deleteItem", listName: "קניות", item: "מלפפונים" }),
    },
  },
  {
    area: "calendar",
    user: "he",
    text: "תקבע לי פגישה עם דנה מחר מ-14:00 עד 15:30 במשרד, עם התראה חצי שעה לפני",
    llm: {
      planner: planned([step("s1", "calendar", "create_event")]),
      "resolver:calendar_mutate": json({
        operation: "create",
        summary: "פגישה עם דנה",
        start: "מחר ב-14:00",
        end: "15:30",
        location: "המשרד",
        reminderMinutesBefore: 30,
      }),
    },
  },
  {
    area: "calendar",
    user: "he",
    text: "מה יש לי ביומן בימים הקרובים?",
    llm: {
      planner: planned([step("s1", "calendar", "list_events")]),
      "resolver:calendar_find": json({ operation: "getEvents" }),
    },
  },
  {
    area: "calendar",
    user: "he",
    text: "איך נראה השבוע שלי?",
    llm: {
      planner: planned([step("s1", "calendar", "analyze_schedule")]),
      "resolver:calendar_find": json({
        operation: "analyzeSchedule",
        timeMin: "2026-03-05",
        timeMax: "2026-03-11",
      }),
    },
  },
  {
    area: "calendar",
    user: "he",
    text: "תבטל את הפגישה עם דנה",
    llm: {
      planner: planned([step("s1", "calendar", "delete_event", { constraints: { summary: "דנה" } })]),
      "resolver:calendar_mutate": json({ operation: "delete", searchCriteria: { summary: "דנה" } }),
    },
  },
  {
    area: "notes",
    user: "he",
    text: "תשמור לי את המתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר",
    llm: {
      planner: planned([step("s1", "second-brain", "store_note")]),
      "resolver:notes": json({
        operation: "store",
        content: "מתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר",
        category: "מתכון",
      }),
    },
  },
  {
    area: "notes",
    user: "he",
    text: "מה צריך לעוגת הגזר?",
    llm: {
      planner: planned([step("s1", "second-brain", "search_notes")]),
      "resolver:notes": json({ operation: "search", query: "עוגת גזר" }),
      "notes:answer": text("צריך 3 גזרים, 2 ביצים וכוס סוכר [1]."),
    },
  },
  { area: "notes", user: "he", text: "פתק: הקוד של הלוקר בבריכה 4412" },
  {
    area: "memory",
    user: "he",
    text: "רק שתדע, אני אלרגית לבוטנים",
    llm: {
      planner: chat(),
      "resolver:general": text("תודה שסיפרת, אזכור את זה."),
      "memory:facts": json({
        facts: [{ message: 1, type: "constraint", content: "אלרגית לבוטנים", importance: 0.6 }],
      }),
    },
  },
  { area: "memory", user: "he", text: "מה אתה זוכר עליי?" },
  {
    area: "small_talk",
    user: "he",
    text: "יש לך רעיון למתנה לילדה בת 8?",
    llm: {
      planner: chat(),
      "resolver:general": text("ערכת יצירה, ספר הרפתקאות או משחק קופסה כמו דיקסיט 🎁"),
    },
  },
  { area: "meta", user: "he", text: "מה אתה יודע לעשות?" },
  { area: "small_talk", user: "he", text: "תודה רבה" },
];
