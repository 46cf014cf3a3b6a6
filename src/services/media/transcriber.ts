import { toFile, type OpenAI } from "openai";
import { openAIAudioClient } from "./openAIClient.js";
import type { AppConfig } from "../../config/env.js";
import { MemoError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";

/** Turns a voice note into text. */
export interface Transcriber {
  /** `language` is a hint (ISO 639-1): Hebrew audio stays Hebrew instead of being translated or misheard. */
  transcribe(audio: { data: Buffer; mimeType: string }, language?: "he" | "en"): Promise<string>;
}

/** A transcription that failed on our side or the provider's (retried by the inbox). @internal */
export class TranscriptionError extends MemoError {}

/** File names the transcription API accepts, by the mime types WhatsApp sends voice notes in. */
function fileNameFor(mimeType: string): string {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  const extension =
    {
      "audio/ogg": "ogg",
      "audio/opus": "ogg",
      "audio/mpeg": "mp3",
      "audio/mp3": "mp3",
      "audio/mp4": "m4a",
      "audio/m4a": "m4a",
      "audio/x-m4a": "m4a",
      "audio/aac": "m4a",
      "audio/amr": "amr",
      "audio/wav": "wav",
      "audio/x-wav": "wav",
      "audio/webm": "webm",
    }[type] ?? "ogg";
  return `voice.${extension}`;
}

/** OpenAI's audio transcription API (or a compatible server's) through the `openai` package. */
class OpenAITranscriber implements Transcriber {
  constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    private readonly logger: Logger,
  ) {}

  async transcribe(audio: { data: Buffer; mimeType: string }, language?: "he" | "en"): Promise<string> {
    const started = performance.now();
    try {
      const result = await this.client.audio.transcriptions.create({
        file: await toFile(audio.data, fileNameFor(audio.mimeType), { type: audio.mimeType }),
        model: this.model,
        ...(language ? { language } : {}),
      });
      this.logger.info(
        {
          event: "transcription",
          model: this.model,
          bytes: audio.data.length,
          ms: Math.round(performance.now() - started),
        },
        "voice note transcribed",
      );
      return result.text.trim();
    } catch (error) {
      throw new TranscriptionError("Transcription failed", { model: this.model }, { cause: error });
    }
  }
}

/** The transcriber of the configuration, or null when no OpenAI-compatible server is configured. */
export function createTranscriber(config: AppConfig, logger: Logger): Transcriber | null {
  const client = openAIAudioClient(config);
  if (!client) return null;
  return new OpenAITranscriber(client, config.llm.models.transcribe, logger);
}
