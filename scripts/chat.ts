// `npm run chat -- --phone 972501234567 [--url http://127.0.0.1:3000] [--name Dana]`: chat with a
// running Memo from the terminal, through its WhatsApp simulator (the same page API the browser
// page uses: an event stream of the conversation, and POST /api/messages for what you type).
// With piped input (`npm run chat <<< "hello"`) each line waits for Memo's answer to the one
// before, and the end of input waits for the last answers before leaving.
import { readFile } from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import type { SimMessage } from "../src/transport/simulator/store.js";

const HELP = `Type a message and press Enter. Commands:
  /1, /2 …              tap option N of Memo's latest buttons or list
  /reply <text>         reply to Memo's last message
  /image <path> [text]  send an image with an optional caption
  /audio <path>         send an audio file as a voice note
  /help                 this text
  /quit                 leave`;

/** Messages of the conversation printed when connecting. */
const HISTORY_MESSAGES = 10;
/** A history message longer than this many characters, or lines, is cut. */
const HISTORY_CHARS = 280;
const HISTORY_LINES = 6;
/** Piped input: Memo is done answering after this long without a new message from it. */
const QUIET_AT_END_MS = 3_000;
const QUIET_BETWEEN_LINES_MS = 1_000;
/** Piped input: the longest wait for Memo's answers before moving on (or leaving). */
const MAX_WAIT_MS = 30_000;
const INDENT = "      ";

const { values } = parseArgs({
  options: {
    phone: { type: "string", default: "972501234567" },
    url: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? "3000"}` },
    name: { type: "string", default: "Dev User" },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  process.stdout.write(
    `npm run chat -- [--phone 972501234567] [--url http://127.0.0.1:3000] [--name "Dev User"]\n\n${HELP}\n`,
  );
  process.exit(0);
}

const phone = values.phone.replace(/[^0-9]/g, "");
const appUrl = values.url.replace(/\/+$/, "");
const base = `${appUrl}/dev/whatsapp`;

/** Colours when the output is a terminal. */
const tty = Boolean(process.stdout.isTTY);
/** Someone typing at a terminal: a prompt, and what they type is on screen already. */
const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);

const paint = (code: string) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
const dim = paint("2");
const bold = paint("1");
const italic = paint("3");
const strike = paint("9");
const green = paint("32");
const red = paint("31");
const cyan = paint("36");

if (!/^[0-9]{6,15}$/.test(phone))
  fail(`--phone must be 6 to 15 digits, country code first (got "${values.phone}")`);

/** Something Memo offered to tap: a reply button or a list row. */
interface Option {
  kind: "button_reply" | "list_reply";
  id: string;
  title: string;
  description?: string;
  messageId: string;
}

const printed = new Set<string>();
let options: Option[] = [];
let lastFromMemo: SimMessage | undefined;
let typingShown = false;
const stopping = new AbortController();

/** Piped input waits on these (Date.now() values): when a message went out, and Memo's last signs of life. */
const activity = { sentAt: 0, repliedAt: 0, lastAt: 0 };

// Created once the first connection stands, so a failure to connect is reported and nothing waits for input.
const session: { lines?: readline.Interface } = {};
/** Typed lines not yet handled: their prompt comes once they are done, not with each line printed meanwhile. */
let handling = 0;
/** /quit was typed: later lines are dropped and nothing more is awaited. */
let quit = false;
/** On the way out: no more prompts. */
let leaving = false;

/** Resolves at the first snapshot, so history (and its options) is printed before any input is handled. */
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => (markReady = resolve));

function fail(message: string): never {
  process.stderr.write(`${red("✗")} ${message}\n`);
  process.exit(1);
}

/** Prints above the prompt without mangling what is being typed. */
function say(line: string): void {
  if (interactive) {
    readline.clearLine(process.stdout, 0);
    readline.cursorTo(process.stdout, 0);
  }
  process.stdout.write(`${line}\n`);
  // The prompt (with what was typed so far) comes back under the line, once: while a typed line is
  // being handled, the prompt waits for it to finish.
  if (handling === 0) prompt(true);
}

function prompt(keepCursor = false): void {
  if (interactive && !leaving) session.lines?.prompt(keepCursor);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Continuation lines of a message line up under its first. */
function indent(text: string): string {
  return text.replace(/\n/g, `\n${INDENT}`);
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** WhatsApp's markup (*bold*, _italic_, ~strike~, ```mono```) as terminal styles; plain text loses the markers. */
function markup(text: string): string {
  const around = (marker: string) =>
    new RegExp(`(^|[\\s(])\\${marker}(?=\\S)([^${marker}\\n]*?\\S)\\${marker}(?=$|[\\s).,!?:;])`, "gm");
  return text
    .replace(/```([\s\S]+?)```/g, "$1")
    .replace(around("*"), (_m, before: string, inner: string) => before + bold(inner))
    .replace(around("_"), (_m, before: string, inner: string) => before + italic(inner))
    .replace(around("~"), (_m, before: string, inner: string) => before + strike(inner));
}

/** The first lines and characters of a long history message. */
function shorten(text: string): string {
  const lines = text.split("\n");
  let short = lines.slice(0, HISTORY_LINES).join("\n");
  if (Array.from(short).length > HISTORY_CHARS) short = Array.from(short).slice(0, HISTORY_CHARS).join("");
  return short.length < text.length ? `${short.trimEnd()} ${dim("…")}` : text;
}

function describe(message: SimMessage, history: boolean): string {
  const parts: string[] = [];
  if (message.media) {
    const kind = message.type === "audio" && message.media.voice ? "voice note" : message.type;
    const where = message.media.path ? `${base}/${message.media.path}` : (message.media.link ?? "");
    parts.push(dim(`[${kind}] ${where}`));
  }
  if (message.location) {
    parts.push(`📍 ${message.location.latitude}, ${message.location.longitude}`);
  }
  if (message.interactive?.header) parts.push(bold(message.interactive.header));
  const text = message.text?.trimEnd();
  if (text) parts.push(indent(markup(history ? shorten(text) : text)));
  if (message.interactive?.footer) parts.push(dim(message.interactive.footer));
  if (parts.length === 0) parts.push(dim(`[${message.type}]`));
  return parts.join(`\n${INDENT}`);
}

/** Memo's buttons on one line, a list's label and each of its rows on lines of their own. */
function describeOptions(message: SimMessage, offered: Option[]): string {
  const numbered = offered.map(
    (o, i) => `${bold(`[${i + 1}]`)} ${o.title}${o.description ? dim(` — ${o.description}`) : ""}`,
  );
  const list = message.interactive?.list;
  if (!list) return `\n${INDENT}${numbered.join("  ")}`;
  return `\n${INDENT}${dim(`☰ ${list.button}`)}${numbered.map((line) => `\n${INDENT}  ${line}`).join("")}`;
}

function show(message: SimMessage, history: boolean): void {
  if (printed.has(message.id)) return;
  printed.add(message.id);
  const fromMemo = message.direction === "out";
  // What you type at a terminal is on screen already; piped input is echoed as it is sent.
  if (!fromMemo && !history && interactive) return;
  if (message.type === "reaction" && message.reaction) {
    say(
      `${dim(clock(message.timestamp))} ${fromMemo ? cyan("Memo") : green("You")} reacted ${message.reaction.emoji}`,
    );
    return;
  }
  const who = fromMemo ? cyan(bold("Memo")) : green("You ");
  const quote = message.context?.preview
    ? `\n${INDENT}${dim(`↪ "${stripMarkup(message.context.preview.split("\n")[0] ?? "")}"`)}`
    : "";
  let text = `${dim(clock(message.timestamp))} ${who}${quote}\n${INDENT}${describe(message, history)}`;
  if (fromMemo) {
    lastFromMemo = message;
    const offered = optionsOf(message);
    if (offered.length > 0) {
      options = offered;
      text += describeOptions(message, offered);
    }
    typingShown = false;
  }
  say(text);
}

/** The text without WhatsApp's markers (for one-line quotes). */
function stripMarkup(text: string): string {
  return text.replace(/(^|[\s(])([*_~])(?=\S)([^*_~\n]*?\S)\2(?=$|[\s).,!?:;])/g, "$1$3");
}

function optionsOf(message: SimMessage): Option[] {
  const interactive = message.interactive;
  if (!interactive) return [];
  const buttons = (interactive.buttons ?? []).map((b): Option => ({
    kind: "button_reply",
    id: b.id,
    title: b.title,
    messageId: message.id,
  }));
  const rows = (interactive.list?.sections ?? []).flatMap((s) =>
    s.rows.map((r): Option => ({
      kind: "list_reply",
      id: r.id,
      title: r.title,
      ...(r.description ? { description: r.description } : {}),
      messageId: message.id,
    })),
  );
  return [...buttons, ...rows];
}

/** Tells the simulator these of Memo's messages were displayed, so the app gets "read". */
function ack(ids: string[]): void {
  if (ids.length === 0) return;
  fetch(`${base}/api/read`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phone, ids }),
  }).catch(() => undefined);
}

function onEvent(event: string, data: string): void {
  if (event === "snapshot") {
    const snapshot = JSON.parse(data) as { messages: SimMessage[]; typing: boolean };
    const fresh = snapshot.messages.filter((m) => !printed.has(m.id));
    // The last few messages give context (on reconnect: the last few of those missed).
    const shown = fresh.slice(-HISTORY_MESSAGES);
    for (const m of fresh.slice(0, fresh.length - shown.length)) printed.add(m.id);
    if (fresh.length > shown.length) say(dim(`(${fresh.length - shown.length} earlier messages not shown)`));
    for (const m of shown) show(m, true);
    ack(snapshot.messages.filter((m) => m.direction === "out" && m.status !== "read").map((m) => m.id));
    markReady();
    return;
  }
  if (event === "message") {
    const message = JSON.parse(data) as SimMessage;
    if (message.direction === "out" && !printed.has(message.id)) {
      activity.repliedAt = Date.now();
      activity.lastAt = activity.repliedAt;
    }
    show(message, false);
    if (message.direction === "in" && message.status === "failed" && message.error) {
      say(`${red("✗")} ${message.error}`);
    }
    if (message.direction === "out" && message.status !== "read") ack([message.id]);
    return;
  }
  if (event === "typing") {
    const { typing } = JSON.parse(data) as { typing: boolean };
    if (typing) activity.lastAt = Date.now();
    if (typing && !typingShown) say(dim("Memo is typing…"));
    typingShown = typing;
  }
}

/**
 * Piped input: waits until Memo has answered what was sent, is not typing, and has been quiet for
 * `quietMs`; at most MAX_WAIT_MS.
 */
async function settle(quietMs: number): Promise<void> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    const now = Date.now();
    const answered = activity.repliedAt >= activity.sentAt;
    if (answered && !typingShown && now - Math.max(activity.lastAt, activity.sentAt) >= quietMs) return;
    if (now >= deadline) {
      if (!answered) say(dim(`No answer from Memo within ${MAX_WAIT_MS / 1000} s.`));
      return;
    }
    await sleep(100);
  }
}

/** Opens the simulator's event stream; throws what the user needs to read when it cannot. */
async function open(): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await fetch(`${base}/events?phone=${phone}`, {
      headers: { Accept: "text/event-stream" },
      signal: stopping.signal,
    });
  } catch (error) {
    throw new Error(unreachable(error), { cause: error });
  }
  if (response.status === 404) {
    throw new Error(
      `Memo answers at ${appUrl}, but its WhatsApp simulator is off (404 at /dev/whatsapp). ` +
        "It is on outside production when WHATSAPP_ACCESS_TOKEN is unset, or with WHATSAPP_SIMULATOR=on.",
    );
  }
  if (!response.ok || !response.body) {
    throw new Error(
      `The simulator refused the event stream: HTTP ${response.status} ${await response.text()}`,
    );
  }
  return response.body;
}

/** Reads an event stream until it ends. */
async function read(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) onEvent(event, data.join("\n"));
    }
  }
}

function unreachable(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === "ECONNREFUSED" || cause?.code === "ENOTFOUND"
    ? `Cannot reach Memo at ${appUrl}. Start it with \`npm start\`, or pass --url.`
    : `Cannot reach Memo at ${appUrl}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Keeps reading the stream, reconnecting after drops. */
async function follow(first: ReadableStream<Uint8Array>): Promise<void> {
  let body: ReadableStream<Uint8Array> | undefined = first;
  for (;;) {
    try {
      await read(body ?? (await open()));
      if (stopping.signal.aborted) return;
      say(dim("Connection closed; reconnecting…"));
    } catch {
      if (stopping.signal.aborted) return;
      say(dim("Connection lost; reconnecting…"));
    }
    body = undefined;
    await sleep(2000);
  }
}

const MIME_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".ogg": "audio/ogg",
  ".opus": "audio/ogg",
  ".oga": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".amr": "audio/amr",
  ".wav": "audio/wav",
  ".webm": "audio/webm",
};

async function post(body: Record<string, unknown>): Promise<void> {
  const startedAt = Date.now();
  let response: Response;
  try {
    response = await fetch(`${base}/api/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phone, name: values.name, ...body }),
    });
  } catch (error) {
    say(`${red("✗")} ${unreachable(error)}`);
    return;
  }
  const answer = (await response.json().catch(() => ({}))) as {
    message?: string;
    webhookStatus?: number | null;
    error?: string;
  };
  if (response.status === 404) say(`${red("✗")} The WhatsApp simulator is off.`);
  else if (!response.ok) say(`${red("✗")} ${answer.message ?? `HTTP ${response.status}`}`);
  else if (answer.error) say(`${red("✗")} ${answer.error}`);
  // Memo took it: an answer is due (it may be on screen already, so the time is the send's start).
  else if (body.type !== "reaction") activity.sentAt = startedAt;
}

async function media(type: "image" | "audio", rest: string): Promise<void> {
  const [file, ...captionWords] = rest.trim().split(/\s+/);
  if (!file) {
    say(`Usage: /${type} <path>${type === "image" ? " [caption]" : ""}`);
    return;
  }
  const mimeType = MIME_TYPES[path.extname(file).toLowerCase()];
  if (!mimeType?.startsWith(`${type}/`)) {
    say(`${red("✗")} ${file}: not a known ${type} file type (${Object.keys(MIME_TYPES).join(" ")})`);
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    say(`${red("✗")} ${(error as Error).message}`);
    return;
  }
  const caption = captionWords.join(" ");
  await post({
    type,
    media: { base64: bytes.toString("base64"), mimeType, filename: path.basename(file) },
    ...(type === "audio" ? { voice: true } : {}),
    ...(caption ? { caption } : {}),
  });
}

async function handle(line: string): Promise<void> {
  const text = line.trim();
  if (!text) return;
  const command = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  if (!command) return post({ type: "text", text: line });
  const [, name = "", rest = ""] = command;
  if (/^[0-9]+$/.test(name)) {
    const option = options[Number(name) - 1];
    if (!option) {
      say(options.length ? `Choose 1 to ${options.length}.` : "Memo has offered no options yet.");
      return;
    }
    // Piped input sees the tap echoed as the message it becomes.
    if (interactive) say(dim(`→ ${option.title}`));
    return post({
      type: "interactive",
      interactive: {
        type: option.kind,
        id: option.id,
        title: option.title,
        ...(option.description ? { description: option.description } : {}),
      },
      replyTo: option.messageId,
    });
  }
  switch (name) {
    case "quit":
    case "exit":
      quit = true;
      session.lines?.close();
      return;
    case "help":
      say(HELP);
      return;
    case "reply":
      if (!lastFromMemo) return say("Memo has not written yet.");
      if (!rest.trim()) return say("Usage: /reply <text>");
      return post({ type: "text", text: rest, replyTo: lastFromMemo.id });
    case "image":
      return media("image", rest);
    case "audio":
      return media("audio", rest);
    default:
      say(`Unknown command /${name}. ${HELP}`);
  }
}

/** Leaves with the terminal as it was: no prompt left behind, the cursor on a fresh line. */
function exit(): never {
  leaving = true;
  stopping.abort();
  if (interactive) {
    readline.clearLine(process.stdout, 0);
    readline.cursorTo(process.stdout, 0);
  }
  process.exit(0);
}

process.stdout.write(
  `${bold("Memo")} via the WhatsApp simulator at ${base}, as +${phone} (${values.name}).\n`,
);
let first: ReadableStream<Uint8Array>;
try {
  first = await open();
} catch (error) {
  fail((error as Error).message);
}
process.stdout.write(`${dim(`Connected. ${interactive ? "/help for commands." : "Sending the input."}`)}\n`);
const lines = readline.createInterface({
  input: process.stdin,
  output: process.stdout,
  prompt: green("you> "),
  // Without a terminal on both ends readline must not echo or redraw: piped lines are echoed as sent.
  terminal: interactive,
});
session.lines = lines;

// Lines are handled one at a time, in order; piped ones each after Memo answered the one before.
let queue: Promise<void> = ready;
lines.on("line", (line) => {
  handling++;
  queue = queue
    .then(() => (interactive ? undefined : settle(QUIET_BETWEEN_LINES_MS)))
    .then(() => (quit ? undefined : handle(line)))
    .catch((error: unknown) => say(`${red("✗")} ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => {
      handling--;
      if (handling === 0) prompt();
    });
});

lines.on("close", () => {
  // /quit and Ctrl-C/Ctrl-D at a terminal leave now; the end of piped input waits for Memo's answers.
  const waitForAnswers = !interactive && !quit;
  if (interactive) leaving = true;
  void queue.then(() => (waitForAnswers ? settle(QUIET_AT_END_MS) : undefined)).finally(exit);
});

prompt();
await follow(first);
