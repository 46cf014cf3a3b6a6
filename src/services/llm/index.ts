export { createLLMService } from "./openAiLlmService.js";
