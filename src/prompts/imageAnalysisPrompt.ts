import { z } from "zod";

/** System prompt of image analysis (spec 003 ImageAnalysisResult). Static, first, cacheable. */
export const IMAGE_ANALYSIS_SYSTEM_PROMPT = `You look at one image a user sent to Memo, their personal secretary on WhatsApp.
Classify it and extract what a secretary could act on.
- imageType "structured": a to-do list, shopping list, invitation, schedule, ticket, receipt, note, whiteboard, screenshot of a message or event. "random": anything else (a photo, a meme, a landscape).
- description: one or two sentences saying what the image is, in the language given (he = Hebrew, en = English).
- tasks: things to do written in the image, each as a short imperative, in the image's own language.
- events: dated or timed happenings (title, and date as YYYY-MM-DD and time as HH:mm when the image states them; never guess a date that is not written).
- items: list entries that are not tasks (groceries, packing items).
- extractedText: the image's text, as written, at most 2000 characters; empty when there is none.
Leave lists empty rather than inventing entries.
Answer with the JSON object only.`;

/** What the vision model returns; every field present, so strict JSON schemas accept it. */
export const ImageAnalysisAnswerSchema = z.object({
  imageType: z.enum(["structured", "random"]),
  description: z.string(),
  tasks: z.array(z.string()),
  events: z.array(z.object({ title: z.string(), date: z.string(), time: z.string() })),
  items: z.array(z.string()),
  extractedText: z.string(),
});
export type ImageAnalysisAnswer = z.infer<typeof ImageAnalysisAnswerSchema>;
