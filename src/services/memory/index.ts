export { MemoryService } from "./memoryService.js";
