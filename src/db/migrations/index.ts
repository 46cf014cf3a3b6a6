import { usersMigration } from "./0001_users.js";
import { extensionsMigration } from "./0002_extensions.js";
import { conversationWindowsMigration } from "./0003_conversation_windows.js";
import { whatsappMigration } from "./0004_whatsapp.js";
import { inboxLeasesMigration } from "./0005_inbox_leases.js";
import { tasksListsMigration } from "./0006_tasks_lists.js";
import { schedulerMigration } from "./0007_scheduler.js";
import { googleMigration } from "./0008_google.js";
import { calendarMigration } from "./0009_calendar.js";
import { memoryMigration } from "./0010_memory.js";
import { llmUsageMigration } from "./0011_llm_usage.js";
import { undoMigration } from "./0012_undo.js";
import { outboundLocalIdMigration } from "./0013_outbound_local_id.js";
import { householdsMigration } from "./0014_households.js";
import { householdSharingMigration } from "./0015_household_sharing.js";
import { householdConsentMigration } from "./0016_household_consent.js";
import { attendeesContactsMigration } from "./0017_attendees_contacts.js";
import { memoryValidityMigration } from "./0018_memory_validity.js";
import { conversationChunksMigration } from "./0019_conversation_chunks.js";
import { memoryEpisodesMigration } from "./0020_memory_episodes.js";
import { twoCalendarsMigration } from "./0021_two_calendars.js";
import { weeklyReviewMigration } from "./0022_weekly_review.js";
import { taskCompletionsMigration } from "./0023_task_completions.js";
import { documentsMigration } from "./0024_documents.js";
import { voiceRepliesMigration } from "./0025_voice_replies.js";
import type { Migration } from "./types.js";

export type { Migration };

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  usersMigration,
  extensionsMigration,
  conversationWindowsMigration,
  whatsappMigration,
  inboxLeasesMigration,
  tasksListsMigration,
  schedulerMigration,
  googleMigration,
  calendarMigration,
  memoryMigration,
  llmUsageMigration,
  undoMigration,
  outboundLocalIdMigration,
  householdsMigration,
  householdSharingMigration,
  householdConsentMigration,
  attendeesContactsMigration,
  memoryValidityMigration,
  conversationChunksMigration,
  memoryEpisodesMigration,
  twoCalendarsMigration,
  weeklyReviewMigration,
  taskCompletionsMigration,
  documentsMigration,
  voiceRepliesMigration,
];
