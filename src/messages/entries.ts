/** The languages Memo speaks. */
export type Language = "he" | "en";

/**
 * A sentence that includes a count, in each plural form its language has (the categories of
 * Intl.PluralRules: English "one"/"other", Hebrew also "two"); `t` picks one by the numeric `count`.
 * A form missing for a category falls back to `other`.
 */
export interface PluralForms {
  readonly one: string;
  readonly two?: string;
  readonly other: string;
}

/** One catalogue entry: a sentence, or its plural forms. */
export type Entry = string | PluralForms;

/**
 * The Hebrew table of an English one: exactly its keys, a sentence where English has a sentence and
 * plural forms where English has them (a missing or extra key is a type error).
 */
export type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : PluralForms };
