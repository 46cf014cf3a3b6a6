/**
 * Words another person wrote (a task given, a reminder's text, a list item, a list's or a person's
 * name), made fit to show to someone else as content, never as Memo's own formatting (DECISIONS
 * D14). The stored text stays as written; only what is displayed passes through here.
 *
 * What WhatsApp would otherwise do with such text, and what is done instead:
 * - `*bold*`, `_italic_`, `~strike~`, `` `code` `` and ```` ```mono``` ```` format when the markers
 *   sit at word edges. WhatsApp has no escape character, and inserting invisible characters to break
 *   a marker relies on undocumented parsing (and invisible characters are themselves an attack on
 *   what a reader sees). So each marker is written as its fullwidth form (＊ ＿ ～ ｀), which
 *   WhatsApp never treats as markup: the reader sees the asterisks the person typed, unformatted,
 *   and Unicode's compatibility mapping (NFKC) takes each back to the character written.
 *   Wrapping the text in a monospace block is no answer: it is formatting too, and a backtick in
 *   the text would end it.
 * - "> " at the start of a line makes a quote: written "＞ " there.
 * - Bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) can show "gnp.exe" as
 *   "exe.png" or reorder words: removed, so the text shows in the order it was written. The one kept
 *   is Memo's own isolate around a phone number (`displayPhone`), which holds only digits.
 * - Links are tappable: a person's text could send a reader to a page that looks like Memo's. Every
 *   dot of an address is written "[.]" and "http://" / "https://" dropped, so "http://evil.example/login"
 *   reads "evil[.]example/login": still legible, no longer a link. A word.word pair is treated as an
 *   address whatever its ending ("photo.zip" is a real domain), and an IPv4 address likewise.
 *   Phone numbers stay as written: calling one is a deliberate act, and tasks name numbers to call.
 */

/**
 * Memo's own left-to-right isolate around a phone number (utils/phone.ts `displayPhone`), kept;
 * else a bidi control (embeddings and overrides, isolates, the LRM/RLM and ALM marks), removed.
 */
const BIDI_CONTROL = /\u2066[+\d][\d ()+-]*\u2069|[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;
/** Control characters other than the line break and the tab. */
const CONTROLS = /(?![\n\t])\p{Cc}/gu;

/** Each WhatsApp markup character and the fullwidth form shown in its place. */
const MARKERS: Readonly<Record<string, string>> = { "*": "＊", _: "＿", "~": "～", "`": "｀" };
const MARKER = /[*_~`]/gu;
/** A quote marker at the start of a line (after any spaces). */
const QUOTE_MARKER = /^(\s*)>/gmu;

/** "scheme://" of an address: http(s) is dropped, any other scheme loses its "://". */
const SCHEME = /\b([a-z][a-z\d+.-]*):\/\//giu;
/** A dot (or an ideographic full stop, which addresses also accept) inside a host name: between a letter or digit and two letters. */
const HOST_DOT = /(?<=[\p{L}\p{N}-])[.\u3002\uFF0E\uFF61](?=\p{L}{2})/gu;
/** An IPv4 address. */
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/gu;

function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, (found) => (found.length > 1 ? found : ""));
}

function defanged(text: string): string {
  return text
    .replace(SCHEME, (_, scheme: string) => (/^https?$/i.test(scheme) ? "" : `${scheme}[:]//`))
    .replace(IPV4, (address) => address.replaceAll(".", "[.]"))
    .replace(HOST_DOT, "[.]");
}

/** One line of another person's words: controls and bidi controls removed, markup and links made inert. */
function inertLine(line: string): string {
  return defanged(withoutBidiControls(line).replace(CONTROLS, ""))
    .replace(MARKER, (marker) => MARKERS[marker] ?? marker)
    .replace(QUOTE_MARKER, "$1＞");
}

/**
 * Another person's words to show within a line of Memo's ("Dana marked “…” done", "milk — Dana"):
 * on one line (line breaks become spaces, so it cannot add lines that look like Memo's), with no
 * markup, links or bidi controls at work. Applying it twice changes nothing more.
 */
export function quotedInline(text: string): string {
  return inertLine(text.replace(/\s+/gu, " ").trim());
}

/**
 * Another person's words as a WhatsApp quote: every line starts with "> " (Memo's own quote
 * markup, chosen so the words stand apart, under the name a template puts above them), each line
 * made inert as in `quotedInline`, so nothing in them can close the quote or format.
 */
export function quotedBlock(text: string): string {
  const lines = text
    .split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/u)
    .map((line) => inertLine(line.replace(/\s+/gu, " ").trim()))
    // A blank line would end the quote, and what follows would read as Memo's.
    .filter((line) => line !== "");
  return (lines.length > 0 ? lines : [""]).map((line) => `> ${line}`).join("\n");
}
