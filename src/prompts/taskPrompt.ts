import { z } from "zod";
import { operationLines, operationNames } from "../contracts/contract.js";
import { ReminderRecurrenceSchema, TaskFiltersSchema, tasksContract } from "../contracts/tasks.js";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";

/** The task operations of the tasks contract (V1's taskOperations, spec 002 §8.2). */
const TASK_OPERATIONS = operationNames(tasksContract, "tasks");

const taskFields = {
  text: z.string().nullish(),
  category: z.string().nullish(),
  dueDate: z
    .string()
    .nullish()
    .describe(
      'When it is due: the user\'s own time words ("tomorrow at 9", "מחר ב-9") or local YYYY-MM-DDTHH:mm',
    ),
  reminder: z.string().nullish().describe('Remind this long before dueDate, e.g. "30 minutes"'),
  reminderRecurrence: ReminderRecurrenceSchema.nullish(),
};

/** A reference to one task: an id handle ("#2", "@1") or words of its text. */
const taskRef = {
  taskId: z
    .string()
    .nullish()
    .describe('"#N" for item N of the list Memo showed last, "@N" for latest action N'),
  text: z.string().nullish(),
};

/** The database task resolver's structured output: V1's taskOperations, plus newText and subtask. */
export const TaskOperationSchema = z.object({
  operation: z.enum(TASK_OPERATIONS),
  ...FROM_STEP_FIELD,
  ...taskRef,
  newText: z.string().nullish().describe("update: the task's new text"),
  category: taskFields.category,
  dueDate: taskFields.dueDate,
  reminder: taskFields.reminder,
  reminderRecurrence: taskFields.reminderRecurrence,
  subtask: z.string().nullish().describe("addSubtask: the subtask's text"),
  filters: TaskFiltersSchema.nullish(),
  tasks: z.array(z.object(taskFields)).nullish().describe("createMultiple"),
  taskIds: z.array(z.string()).nullish().describe("deleteMultiple: handles or task texts"),
  updates: z
    .array(
      z.object({
        ...taskRef,
        newText: z.string().nullish(),
        category: taskFields.category,
        dueDate: taskFields.dueDate,
        reminder: taskFields.reminder,
        reminderRecurrence: taskFields.reminderRecurrence,
      }),
    )
    .nullish()
    .describe("updateMultiple"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type TaskOperation = z.infer<typeof TaskOperationSchema>;
/** System prompt of DatabaseTaskResolver, with V1's rules (spec 002 §8.0). Static, first, cacheable. */
export const DATABASE_TASK_SYSTEM_PROMPT = `You turn one step of Memo's plan into a task operation. Memo is a personal secretary on WhatsApp; users write in Hebrew or English.
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Operations:
${operationLines(tasksContract, "tasks")}

Naming tasks:
- "#N" in taskId means item N of the numbered list Memo showed last ("done 2" → complete, taskId "#2"; "delete 1 and 3" → deleteMultiple, taskIds ["#1", "#3"]).
- "@N" means latest action N. "it", "that", "זה", "אותו", "אותה" refer to what an earlier step of this message produced when the message lists such steps (set fromStep to its id), otherwise to @1, unless the message says otherwise ("move it to 18:00" → update, taskId "@1", dueDate "18:00").
- "them", "all of them", "אותן", "אותם" after an earlier step of this message that found or made several tasks: completeAll / deleteAll / updateAll with fromStep set to that step and no filters.
- Otherwise put the user's own words for the task in text ("the dentist" → text "dentist"). Never invent ids.

Time (never compute dates yourself):
- dueDate is the user's own time words copied as written ("tomorrow at 9", "מחר ב-9", "in 20 minutes", "בעוד שעה", "Sunday at 18:00", "18:00") or, for an explicit calendar date, local "YYYY-MM-DDTHH:mm" / "YYYY-MM-DD".
- A time counted from what an earlier step of this message made or found ("the day before it", "an hour before the meeting", "יום לפני", "שעה לפני הפגישה") goes into dueDate as those words, with fromStep set to that step; code reads it against that step's time.
- A reminder is: an explicit time ("at 5", "tomorrow 9am"), a "X before" ("remind me 30 minutes before the meeting at 10" → dueDate "10:00", reminder "30 minutes"), or a date only ("on Friday", dueDate "Friday"). A task with no time words has no dueDate.
- NUDGE vs DAILY: "every X minutes", "כל X דקות", "נדנד אותי", "תציק לי", "תחפור לי" → reminderRecurrence {type "nudge", interval "X minutes"} (default "10 minutes" if no number). "every day at X", "כל יום ב-X" → {type "daily", time "HH:mm"}. Nudges repeat until the task is done.
- Weekly: {type "weekly", days [0-6, 0 = Sunday], time "HH:mm"} ("every Monday and Wednesday at 18:00" → days [1, 3]; "כל יום ראשון" → days [0]). Monthly: {type "monthly", dayOfMonth, time} ("every month on the 10th at 9:00", "כל 10 לחודש ב-9:00"). "until …" / "עד …" goes in until, as written.
- Every repeat also gets phrase: the user's repeat words with their time and end, copied as written ("every other Tuesday at 8", "כל יום חול ב-7", "the last day of every month"); code reads the rule from them. For a repeat the four types cannot say (every weekday or weekend, every other day, every 2 weeks, the first Sunday or last day of the month, every year on a date), phrase is all that counts: give the nearest type and no other fields.
- Holidays and Hebrew-calendar dates are time words like any other: copy them as written ("on Pesach", "ערב ראש השנה", "on Christmas at 6 pm", "every year on 15 Shevat", "כל שנה בכ"ה באדר", "on my Hebrew birthday") into dueDate, or into phrase for a repeat; never turn them into a date yourself. Keep the words yahrzeit / אזכרה / יארצייט / Hebrew birthday / יום הולדת עברי in phrase with the date ("yahrzeit every year on 7 Adar"): they decide which day it falls on in leap years.
- A recurrence has no dueDate unless the user gave a start date.
- Completing a reminder task deletes it; that is Memo's job: for "done", "finished", "סיימתי", "עשיתי" just use complete.

Write texts in the user's language, as they would ("call mom", "להתקשר לאמא"). Ask (question) only when the operation is impossible without an answer, in the user's language.`;
