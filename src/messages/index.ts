import type { CapabilityName } from "../types/index.js";
import { CALENDAR_EN, CALENDAR_HE } from "./calendar.js";
import { CORE_EN, CORE_HE } from "./core.js";
import { DOCUMENTS_EN, DOCUMENTS_HE } from "./documents.js";
import type { Language, PluralForms, Translation } from "./entries.js";
import { GMAIL_EN, GMAIL_HE } from "./gmail.js";
import { GOOGLE_EN, GOOGLE_HE } from "./google.js";
import { HOUSEHOLD_EN, HOUSEHOLD_HE } from "./household.js";
import { NOTES_EN, NOTES_HE } from "./notes.js";
import { OFFERS_EN, OFFERS_HE } from "./offers.js";
import { ONBOARDING_EN, ONBOARDING_HE } from "./onboarding.js";
import { OTHERS_WORDS, type Quoting } from "./othersWords.js";
import { TASKS_EN, TASKS_HE } from "./tasks.js";
import { UNDO_EN, UNDO_HE } from "./undo.js";
import { quotedBlock, quotedInline } from "../utils/quotedText.js";

export type { Language } from "./entries.js";

/** Each area's table, English and Hebrew; their keys are namespaced so no two areas share one. @internal */
export const AREAS = [
  [CORE_EN, CORE_HE],
  [TASKS_EN, TASKS_HE],
  [UNDO_EN, UNDO_HE],
  [GOOGLE_EN, GOOGLE_HE],
  [CALENDAR_EN, CALENDAR_HE],
  [GMAIL_EN, GMAIL_HE],
  [NOTES_EN, NOTES_HE],
  [DOCUMENTS_EN, DOCUMENTS_HE],
  [ONBOARDING_EN, ONBOARDING_HE],
  [HOUSEHOLD_EN, HOUSEHOLD_HE],
  [OFFERS_EN, OFFERS_HE],
] as const;

const EN = {
  ...CORE_EN,
  ...TASKS_EN,
  ...UNDO_EN,
  ...GOOGLE_EN,
  ...CALENDAR_EN,
  ...GMAIL_EN,
  ...NOTES_EN,
  ...DOCUMENTS_EN,
  ...ONBOARDING_EN,
  ...HOUSEHOLD_EN,
  ...OFFERS_EN,
};

const HE: Translation<typeof EN> = {
  ...CORE_HE,
  ...TASKS_HE,
  ...UNDO_HE,
  ...GOOGLE_HE,
  ...CALENDAR_HE,
  ...GMAIL_HE,
  ...NOTES_HE,
  ...DOCUMENTS_HE,
  ...ONBOARDING_HE,
  ...HOUSEHOLD_HE,
  ...OFFERS_HE,
};

/**
 * Every fixed sentence Memo says, in English and Hebrew: the one place where results, questions,
 * errors and control-plane events become what the user reads. WhatsApp formats `*bold*` only at
 * word edges, so a marker is never glued to a letter: "לרשימה *{name}*", not "ל*{name}*"
 * (tests/messages/markup.test.ts checks every sentence).
 * @internal
 */
export const MESSAGES: { readonly en: typeof EN; readonly he: Translation<typeof EN> } = { en: EN, he: HE };

/** The key of any sentence in the catalogue, e.g. "calendar.noEvents". */
export type MessageKey = keyof typeof EN;

/** Keys whose entry has plural forms: their lookup needs a numeric `count`. */
export type PluralKey = { [K in MessageKey]: (typeof EN)[K] extends string ? never : K }[MessageKey];

/** Values of `{name}` placeholders; a number is written as digits. */
export type MessageVars = Readonly<Record<string, string | number>>;

/** The placeholders of a sentence that carry another person's words, and how each is shown. */
const QUOTED = new Map(Object.entries(OTHERS_WORDS));

/**
 * `template` with placeholder `{name}` on lines of its own: the words before it on its line end
 * that line, the words after it start the next (WhatsApp makes a quote only of a line that starts
 * with "> ").
 */
function onOwnLines(template: string, name: string): string {
  const placed = new RegExp(String.raw`[^\S\n]*\{${name}\}[^\S\n]*`, "g");
  return template.replace(placed, (found, at: number, whole: string) => {
    const startsLine = at === 0 || whole[at - 1] === "\n";
    const next = whole[at + found.length];
    const endsLine = next === undefined || next === "\n";
    return `${startsLine ? "" : "\n"}{${name}}${endsLine ? "" : "\n"}`;
  });
}

/**
 * `template` with its `{name}` placeholders filled from `vars` (unknown names stay as written);
 * those in `quoted` show another person's words through quotedText, a quote block on lines of its own.
 */
function fillTemplate(
  template: string,
  vars: MessageVars,
  quoted: Readonly<Record<string, Quoting>> = {},
): string {
  const laidOut = Object.entries(quoted)
    .filter(([, how]) => how === "block")
    .reduce((text, [name]) => onOwnLines(text, name), template);
  return laidOut.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) return `{${name}}`;
    switch (quoted[name]) {
      case "inline":
        return quotedInline(String(value));
      case "block":
        return quotedBlock(String(value));
      default:
        return String(value);
    }
  });
}

const PLURAL_RULES = { en: new Intl.PluralRules("en"), he: new Intl.PluralRules("he") };

/**
 * The form of `forms` that `count` takes in `language`: "one" and "two" only for exactly 1 and 2
 * (Intl.PluralRules puts Hebrew ½ in "one", which would say "שעה" for half an hour), else the
 * language's rule, "other" where a form is missing.
 */
function pluralForm(forms: PluralForms, count: number, language: Language): string {
  const category = PLURAL_RULES[language].select(count);
  if (category === "one" && count === 1) return forms.one;
  if (category === "two" && count === 2) return forms.two ?? forms.other;
  return forms.other;
}

/**
 * The sentence `key` in `language`, with `{name}` placeholders filled; those that carry another
 * person's words (othersWords.ts) are shown quoted, as content. A key with plural forms needs
 * a numeric `count` (a type error without one) and says it in the form that count takes.
 */
export function t<K extends MessageKey>(
  language: Language,
  key: K,
  ...[vars]: K extends PluralKey ? [vars: MessageVars & { count: number }] : [vars?: MessageVars]
): string {
  const entry: string | PluralForms = MESSAGES[language][key];
  const given: MessageVars = vars ?? {};
  const template =
    typeof entry === "string" ? entry : pluralForm(entry, Number(given.count ?? Number.NaN), language);
  return fillTemplate(template, given, QUOTED.get(key));
}

/** How a capability is named to the user. */
export function capabilityLabel(language: Language, capability: CapabilityName): string {
  return t(language, `capability.${capability}`);
}
