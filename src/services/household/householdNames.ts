import { t, type Language } from "../../messages/index.js";
import { onlyInvisible, visibleText } from "../../utils/args.js";
import { literalOf } from "../../utils/fuzzy.js";

/** The longest name a household knows someone by (the "Dana: …" command reads up to 40 characters). */
const MAX_MEMBER_NAME = 40;

/** Controls that make text show in another order than it is written (U+202A–U+202E, U+2066–U+2069). */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * The name an inviter gave someone, as the household will show it to everyone (without invisible
 * marks at its ends), or the refusal of a name that shows nothing, is written with direction
 * controls (`\u202eanaD` shows as "Dana"), or is too long: the rules of task and list names.
 */
export function memberNameOf(raw: string, language: Language): { name: string } | { refused: string } {
  if (onlyInvisible(raw) || visibleText(raw) === "")
    return { refused: t(language, "invisibleName", { what: t(language, "household.what.name") }) };
  if (DIRECTION_CONTROLS.test(raw)) return { refused: t(language, "household.nameControls") };
  const name = visibleText(raw);
  if (name.length > MAX_MEMBER_NAME)
    return {
      refused: t(language, "tooLong", {
        what: t(language, "household.what.name"),
        max: MAX_MEMBER_NAME.toLocaleString("en-US"),
      }),
    };
  return { name };
}

/** Whether two household names are the same name (any case, invisible marks aside), as `memberNamed` compares. */
export function sameName(a: string, b: string): boolean {
  return literalOf(a) === literalOf(b);
}

/** `name`, or "name (2)", "name (3)"… the first that none of `taken` is. */
export function freeName(name: string, taken: readonly string[]): string {
  let candidate = name;
  for (let n = 2; taken.some((other) => sameName(other, candidate)); n++) candidate = `${name} (${n})`;
  return candidate;
}
