import type OpenAI from "openai";
import { openAIAudioClient } from "./openAIClient.js";
import type { AppConfig } from "../../config/env.js";
import { speechCostUsd } from "../../config/llmConfig.js";
import { MemoError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { isOggOpus } from "../../utils/oggOpus.js";

/**
 * The mime type of what a Speaker makes: Ogg/Opus, what WhatsApp plays as a voice note, as Meta's
 * table of supported media types names it ("audio/ogg", OPUS codecs only).
 */
const SPEECH_MIME_TYPE = "audio/ogg";

/**
 * Longest text spoken (1,500 characters, about 100 seconds of speech): well under gpt-4o-mini-tts's
 * 2,000 input tokens (a Hebrew character can be a token of its own) and OpenAI's 4,096 characters,
 * and a note short enough to stay under SPEECH_MAX_BYTES. A longer reply goes as text.
 */
export const SPEECH_MAX_CHARACTERS = 1500;

/**
 * Largest voice note sent (512 KB): WhatsApp shows a voice note's play button only up to 512 KB
 * (Cloud API, "Supported media types", audio: "voice messages" up to 512 KB, about 2 minutes);
 * bigger audio would arrive as a file. Bigger speech goes as text.
 */
export const SPEECH_MAX_BYTES = 512 * 1024;

/** What one spoken answer cost. */
interface SpeechUsage {
  model: string;
  /** Characters spoken (what the price is per). */
  characters: number;
  costUsd: number;
  durationMs: number;
}

/** Turns a reply's text into a voice note. */
export interface Speaker {
  /** Ogg/Opus audio of `text` spoken in `language`, with what it cost. */
  speak(
    text: string,
    language: "he" | "en",
  ): Promise<{ audio: Buffer; mimeType: string; usage: SpeechUsage }>;
}

/** A speech call that failed on our side or the provider's (the reply then goes as text). */
class SpeechError extends MemoError {}

/** How the model is asked to speak each language (gpt-4o-mini-tts and later take instructions). */
const INSTRUCTIONS = {
  he: "Speak in Hebrew, warmly and clearly, at a natural pace.",
  en: "Speak in English, warmly and clearly, at a natural pace.",
} as const;

/** OpenAI's speech API (or a compatible server's) through the `openai` package. */
class OpenAISpeaker implements Speaker {
  constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    private readonly voices: { he: string; en: string },
    private readonly logger: Logger,
  ) {}

  async speak(
    text: string,
    language: "he" | "en",
  ): Promise<{ audio: Buffer; mimeType: string; usage: SpeechUsage }> {
    const started = performance.now();
    try {
      const response = await this.client.audio.speech.create({
        model: this.model,
        voice: this.voices[language],
        input: text,
        // Ogg/Opus: what WhatsApp takes as a voice note.
        response_format: "opus",
        // tts-1 and tts-1-hd take no instructions; the gpt-4o speech models do.
        ...(this.model.startsWith("tts-") ? {} : { instructions: INSTRUCTIONS[language] }),
      });
      const audio = Buffer.from(await response.arrayBuffer());
      // Some OpenAI-compatible servers ignore response_format (and answer WAV or MP3): WhatsApp
      // plays only Ogg/Opus as a voice note, so anything else is a failed speech call.
      if (!isOggOpus(audio)) {
        throw new SpeechError("Speech is not Ogg/Opus", {
          model: this.model,
          bytes: audio.length,
          start: audio.toString("latin1", 0, 4),
        });
      }
      const durationMs = Math.round(performance.now() - started);
      const usage: SpeechUsage = {
        model: this.model,
        characters: text.length,
        costUsd: speechCostUsd(this.model, text.length),
        durationMs,
      };
      this.logger.info(
        { event: "speech", model: this.model, characters: text.length, bytes: audio.length, ms: durationMs },
        "reply spoken",
      );
      return { audio, mimeType: SPEECH_MIME_TYPE, usage };
    } catch (error) {
      if (error instanceof SpeechError) throw error;
      throw new SpeechError("Speech failed", { model: this.model }, { cause: error });
    }
  }
}

/**
 * The speaker of the configuration, or null when no OpenAI-compatible server is configured or
 * LLM_SPEECH_MODEL is "off".
 */
export function createSpeaker(config: AppConfig, logger: Logger): Speaker | null {
  const { model, voices } = config.llm.speech;
  const client = model ? openAIAudioClient(config) : null;
  if (!model || !client) return null;
  return new OpenAISpeaker(client, model, voices, logger);
}
