import type { ReplyContent } from "../../types/outbound.js";
import type { HITLOption } from "../../types/index.js";
import { graphemeCutBefore, templateParameter } from "../../utils/templateParameter.js";

/**
 * Turns a reply into WhatsApp Cloud API message bodies within WhatsApp's limits: text split at
 * 4,096 characters, reply buttons (≤ 3, titles ≤ 20), list messages (≤ 10 rows, titles ≤ 24),
 * and numbered text when neither fits. Lengths are counted in UTF-16 code units (`string.length`),
 * which is never less than what Meta counts, so a Hebrew or emoji text that fits here fits there.
 */

/** Longest text message body. @internal */
export const TEXT_LIMIT = 4096;
/** Longest body of an interactive message (lists allow more; buttons do not). */
const INTERACTIVE_BODY_LIMIT = 1024;
/** Most reply buttons in one message. */
const MAX_BUTTONS = 3;
/** Longest reply button title. */
const BUTTON_TITLE_LIMIT = 20;
/** Longest reply button id. */
const BUTTON_ID_LIMIT = 256;
/** Most rows in one list message, over all its sections. */
const MAX_LIST_ROWS = 10;
/** Longest list row title. */
const ROW_TITLE_LIMIT = 24;
/** Longest list row description. */
const ROW_DESCRIPTION_LIMIT = 72;
/** Longest list row id. */
const ROW_ID_LIMIT = 200;
/** Longest label of the button that opens a list. */
const LIST_BUTTON_LIMIT = 20;
/** Longest list section title. */
const SECTION_TITLE_LIMIT = 24;

const ELLIPSIS = "…";

/** The label of the button that opens a list, and the title of its one section. */
const LIST_WORDING = {
  en: { button: "Choose", section: "Options" },
  he: { button: "בחירה", section: "אפשרויות" },
} as const;

interface PayloadBase {
  /** The recipient's phone number (digits, as WhatsApp gave it). */
  to: string;
  /** Makes the message a reply to this WhatsApp message id (quoted in the chat). */
  context?: { message_id: string };
}

/** A text message's Graph API body. @internal */
export interface TextPayload extends PayloadBase {
  type: "text";
  text: { body: string; preview_url?: boolean };
}

interface ReplyButton {
  type: "reply";
  reply: { id: string; title: string };
}

interface ListRow {
  id: string;
  title: string;
  description?: string;
}

interface ButtonInteractive {
  type: "button";
  body: { text: string };
  action: { buttons: ReplyButton[] };
}

interface ListInteractive {
  type: "list";
  body: { text: string };
  action: { button: string; sections: { title?: string; rows: ListRow[] }[] };
}

/** A button or list message's Graph API body. @internal */
export interface InteractivePayload extends PayloadBase {
  type: "interactive";
  interactive: ButtonInteractive | ListInteractive;
}

/** An approved message template, the only thing WhatsApp lets a business send outside the 24-hour window. */
export interface TemplatePayload extends PayloadBase {
  type: "template";
  template: {
    name: string;
    language: { code: string };
    components: (
      | { type: "body"; parameters: { type: "text"; text: string }[] }
      | {
          type: "button";
          sub_type: "quick_reply";
          index: string;
          parameters: { type: "payload"; payload: string }[];
        }
    )[];
  };
}

/** A voice note: uploaded audio (Ogg/Opus) sent by its media id, shown as a voice message (`voice`). */
interface AudioPayload extends PayloadBase {
  type: "audio";
  audio: { id: string; voice: true };
}

/** A Cloud API message body without `messaging_product` / `recipient_type` (the client adds them). */
export type OutboundPayload = TextPayload | InteractivePayload | TemplatePayload | AudioPayload;

/**
 * A template message whose body's one parameter is `text`, as one line (templateParameter: lines
 * joined with " · ", cut past the limit). `buttons`: the payloads of the template's quick-reply
 * buttons, in their order (a tap comes back as a message of type `button` carrying the payload).
 */
export function buildTemplatePayload(
  to: string,
  template: { name: string; languageCode: string },
  text: string,
  buttons: readonly string[] = [],
): TemplatePayload {
  const { parameter } = templateParameter(text);
  return {
    to,
    type: "template",
    template: {
      name: template.name,
      language: { code: template.languageCode },
      components: [
        { type: "body", parameters: [{ type: "text", text: parameter }] },
        ...buttons.map((payload, index) => ({
          type: "button" as const,
          sub_type: "quick_reply" as const,
          index: String(index),
          parameters: [{ type: "payload" as const, payload }],
        })),
      ],
    },
  };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The smallest cut position ≥ `start` that falls between graphemes (code points as a fallback). */
function graphemeCutAfter(text: string, start: number): number {
  for (const { index } of graphemes.segment(text)) {
    if (index >= start) return index;
  }
  const low = text.charCodeAt(start);
  return low >= 0xdc00 && low <= 0xdfff ? start + 1 : start;
}

/** `text` shortened to at most `max` characters, ending in "…" when it was cut. @internal */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, graphemeCutBefore(text, max - ELLIPSIS.length)).trimEnd()}${ELLIPSIS}`;
}

/** A place to split: the chunk before ends at `cut`, the next begins at `resume` (separator dropped). */
interface Boundary {
  cut: number;
  resume: number;
}

/** Places to split, best first: paragraphs, lines, sentences, spaces (never a no-break space). */
const LEVELS: ((text: string) => Boundary[])[] = [
  (text) => boundaries(text, /\n[^\S\n]*\n(?:[^\S\n]*\n)*/g, 0),
  (text) => boundaries(text, /[^\S\n]*\n/g, 0),
  (text) => boundaries(text, /[.!?…。][)"'”’»]*([ \t]+)/g, 1),
  (text) => boundaries(text, /[ \t]+/g, 0),
];

/** Every match of `pattern`; the chunk keeps the match up to capture group `keep`'s start (0: none of it). */
function boundaries(text: string, pattern: RegExp, keep: 0 | 1): Boundary[] {
  return [...text.matchAll(pattern)].map((m) => ({
    cut: keep === 0 ? m.index : m.index + m[0].length - (m[1]?.length ?? 0),
    resume: m.index + m[0].length,
  }));
}

/** Line endings folded to \n, outer whitespace dropped. */
function normalize(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/** Where the first chunk of `text` (longer than `max`) should end. */
function firstCut(text: string, max: number): Boundary {
  for (const level of LEVELS) {
    const fitting = level(text).filter((b) => b.cut > 0 && b.cut <= max);
    const last = fitting[fitting.length - 1];
    if (last) return last;
  }
  const cut = graphemeCutBefore(text, max);
  return { cut, resume: cut };
}

/** Where the last chunk of `text` (longer than `max`) should begin: the longest tail that fits. */
function lastCut(text: string, max: number): Boundary {
  for (const level of LEVELS) {
    const fitting = level(text).find((b) => b.cut > 0 && b.resume >= text.length - max);
    if (fitting) return fitting;
  }
  const cut = graphemeCutAfter(text, text.length - max);
  return { cut, resume: cut };
}

/**
 * `text` in pieces of at most `max` characters (default: 4,096, WhatsApp's text limit), split at
 * the last paragraph break that fits, else the last line break, else a sentence end, else a space,
 * else between graphemes. Pieces are never empty; an empty or blank text gives none.
 * @internal
 */
export function splitText(text: string, max = TEXT_LIMIT): string[] {
  if (!Number.isInteger(max) || max < 2)
    throw new RangeError(`splitText: max must be an integer ≥ 2, got ${max}`);
  const chunks: string[] = [];
  let rest = normalize(text);
  while (rest.length > max) {
    const { cut, resume } = firstCut(rest, max);
    const chunk = rest.slice(0, cut).trimEnd();
    if (chunk) chunks.push(chunk);
    // Blank lines go; the next line's indentation stays.
    rest = rest.slice(resume).replace(/^(?:[^\S\n]*\n)+/, "");
  }
  if (rest) chunks.push(rest);
  return chunks;
}

/** `text` as a short tail of at most `max` characters and the head before it (possibly empty). */
function splitTail(text: string, max: number): { head: string; tail: string } {
  const normalized = normalize(text);
  if (normalized.length <= max) return { head: "", tail: normalized };
  const { cut, resume } = lastCut(normalized, max);
  return { head: normalized.slice(0, cut).trimEnd(), tail: normalized.slice(resume).trim() };
}

function textPayloads(to: string, text: string): TextPayload[] {
  return splitText(text).map((body) => ({ to, type: "text", text: { body } }));
}

/** Whether no two strings are the same, ignoring case and outer spaces. */
function distinct(values: string[]): boolean {
  return new Set(values.map((v) => v.trim().toLocaleLowerCase())).size === values.length;
}

/** Reply buttons for `options`, or undefined when they do not fit WhatsApp's button rules. */
function buttonsFor(options: HITLOption[]): ReplyButton[] | undefined {
  if (options.length === 0 || options.length > MAX_BUTTONS) return undefined;
  const titles = options.map((o) => o.label.trim());
  if (titles.some((t) => t.length === 0 || t.length > BUTTON_TITLE_LIMIT)) return undefined;
  if (options.some((o) => o.id.length === 0 || o.id.length > BUTTON_ID_LIMIT)) return undefined;
  // WhatsApp rejects a message whose button titles (or ids) repeat.
  if (!distinct(titles) || new Set(options.map((o) => o.id)).size !== options.length) return undefined;
  return options.map((o, i) => ({ type: "reply", reply: { id: o.id, title: titles[i]! } }));
}

/** A list row for `option`: a long label is cut at a space into the title, the rest goes below it. */
function rowFor(option: HITLOption): ListRow {
  const label = option.label.trim().replace(/\s+/g, " ");
  if (label.length <= ROW_TITLE_LIMIT) return { id: option.id, title: label };
  const room = ROW_TITLE_LIMIT - ELLIPSIS.length;
  const space = label.lastIndexOf(" ", room);
  // A space too near the start would waste the title; cut mid-word instead.
  const cut = space >= room / 2 ? space : graphemeCutBefore(label, room);
  return {
    id: option.id,
    title: `${label.slice(0, cut).trimEnd()}${ELLIPSIS}`,
    description: truncate(label.slice(cut).trim(), ROW_DESCRIPTION_LIMIT),
  };
}

/** List rows for `options`, or undefined when they do not fit WhatsApp's list rules. */
function rowsFor(options: HITLOption[]): ListRow[] | undefined {
  if (options.length === 0 || options.length > MAX_LIST_ROWS) return undefined;
  if (options.some((o) => o.id.length === 0 || o.id.length > ROW_ID_LIMIT || !o.label.trim())) {
    return undefined;
  }
  const rows = options.map(rowFor);
  // Rows the user cannot tell apart (or that WhatsApp would reject) are no choice at all.
  if (!distinct(rows.map((r) => r.title)) || new Set(rows.map((r) => r.id)).size !== rows.length) {
    return undefined;
  }
  return rows;
}

/**
 * An interactive message asking `question`; when the question is longer than an interactive body
 * allows, its beginning goes first as text and the body keeps the end (where the question is).
 */
function interactivePayloads(
  to: string,
  question: string,
  build: (body: string) => ButtonInteractive | ListInteractive,
): OutboundPayload[] {
  const { head, tail } = splitTail(question, INTERACTIVE_BODY_LIMIT);
  return [...textPayloads(to, head), { to, type: "interactive", interactive: build(tail) }];
}

/** The message bodies for `reply`, before the reply-to context is attached. Options without an expectedInput count as a single choice. */
function payloadsFor(to: string, reply: ReplyContent): OutboundPayload[] {
  const { options, expectedInput } = reply;
  if (options.length === 0 || expectedInput === "free_text" || expectedInput === "multi_choice") {
    // Multi-choice answers are typed ("1, 3"): WhatsApp's buttons and lists take one tap.
    return textPayloads(to, reply.text);
  }
  const question = normalize(reply.question ?? reply.text);
  if (!question) return textPayloads(to, reply.text);

  const buttons = buttonsFor(options);
  if (buttons) {
    return interactivePayloads(to, question, (body) => ({
      type: "button",
      body: { text: body },
      action: { buttons },
    }));
  }
  const rows = rowsFor(options);
  if (rows) {
    const wording = LIST_WORDING[reply.language];
    return interactivePayloads(to, question, (body) => ({
      type: "list",
      body: { text: body },
      action: {
        button: truncate(reply.listButton ?? wording.button, LIST_BUTTON_LIMIT),
        sections: [{ title: truncate(wording.section, SECTION_TITLE_LIMIT), rows }],
      },
    }));
  }
  return textPayloads(to, reply.text);
}

/**
 * The WhatsApp messages that carry `reply` to `to`, in sending order: text (split at 4,096), reply
 * buttons (yes/no and up to 3 short, distinct options), a list (up to 10 options), or the numbered
 * `text` as given (multi-choice, more than 10 options, or options no button or list can show).
 * Only the first message quotes `replyToMessageId`. Empty when there is nothing to say.
 */
export function buildReplyPayloads(
  to: string,
  reply: ReplyContent,
  replyToMessageId?: string,
): OutboundPayload[] {
  const payloads = payloadsFor(to, reply);
  const first = payloads[0];
  if (first && replyToMessageId) first.context = { message_id: replyToMessageId };
  return payloads;
}
