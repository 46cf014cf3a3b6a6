export { LLMError, type LLMErrorContext, type LLMErrorKind } from "./llmError.js";
export { createLLMService, OpenAILLMService } from "./openAiLlmService.js";
export { costUsd } from "./cost.js";
export { structuredMethodFor, type LangChainStructuredMethod } from "./structuredMethod.js";
