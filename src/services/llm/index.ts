export type { LLMContentPart, LLMMessage, LLMResult, LLMService, LLMUsage } from "./LLMService.js";
export { LLMError, type LLMErrorContext, type LLMErrorKind } from "./LLMError.js";
export { createLLMService, OpenAILLMService } from "./OpenAILLMService.js";
export { costUsd } from "./cost.js";
export { structuredMethodFor, type LangChainStructuredMethod } from "./structuredMethod.js";
