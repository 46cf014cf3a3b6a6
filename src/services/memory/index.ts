export {
  CHARS_PER_TOKEN,
  DISAMBIGUATION_EXPIRY_MS,
  LATEST_ACTIONS_READ,
  MAX_LATEST_ACTIONS,
  MAX_RECENT_TASKS,
  MAX_SYSTEM_MESSAGES,
  MAX_TOTAL_MESSAGES,
  MAX_TOTAL_TOKENS,
  ConversationWindow,
} from "./conversationWindow.js";
export { enforceMemoryLimits, estimateTokens, totalTokens } from "./limits.js";
export {
  MemoryService,
  type AddUserMessageOptions,
  type LongTermRead,
  type ConversationStats,
  type MemoryServiceOptions,
} from "./memoryService.js";
