import {
  IMAGE_ANALYSIS_SYSTEM_PROMPT,
  ImageAnalysisAnswerSchema,
  type ImageAnalysisAnswer,
} from "../../prompts/imageAnalysisPrompt.js";
import type { ImageAnalysisResult, ImageContext } from "../../types/index.js";
import type { LLMService, LLMUsage } from "../../types/llm.js";

/** The image as downloaded from WhatsApp. */
export interface ImageInput {
  id: string;
  data: Buffer;
  mimeType: string;
  caption?: string;
}

/** Lists trimmed of blanks; an absent part stays absent (spec 003 keeps the fields optional). */
function toResult(answer: ImageAnalysisAnswer): ImageAnalysisResult {
  const clean = (list: string[]) => list.map((s) => s.trim()).filter(Boolean);
  const tasks = clean(answer.tasks);
  const items = clean(answer.items);
  const events = answer.events
    .filter((e) => e.title.trim())
    .map((e) => ({
      title: e.title.trim(),
      ...(e.date.trim() ? { date: e.date.trim() } : {}),
      ...(e.time.trim() ? { time: e.time.trim() } : {}),
    }));
  const extractedData = {
    ...(tasks.length ? { tasks } : {}),
    ...(events.length ? { events } : {}),
    ...(items.length ? { items } : {}),
  };
  return {
    description: answer.description.trim(),
    ...(Object.keys(extractedData).length ? { extractedData } : {}),
    ...(answer.extractedText.trim() ? { extractedText: answer.extractedText.trim().slice(0, 2000) } : {}),
  };
}

/**
 * Analyses an image with the vision model into the image context the graph and memory keep
 * (spec 000 §2.4): structured or random, what it shows, and the tasks, events and items in it.
 */
export async function analyzeImage(
  llm: LLMService,
  image: ImageInput,
  language: "he" | "en",
  now: number,
): Promise<{ context: ImageContext; usage: LLMUsage }> {
  const { value, usage } = await llm.structured(
    "imageAnalysis",
    ImageAnalysisAnswerSchema,
    [
      { role: "system", content: IMAGE_ANALYSIS_SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `Language: ${language}${image.caption ? `\nThe user's caption: ${image.caption}` : ""}`,
          },
          { type: "image", mimeType: image.mimeType, data: image.data },
        ],
      },
    ],
    { name: "image_analysis" },
  );
  return {
    context: {
      imageId: image.id,
      analysisResult: toResult(value),
      imageType: value.imageType,
      extractedAt: now,
    },
    usage,
  };
}
