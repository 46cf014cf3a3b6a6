import { describe, expect, it } from "vitest";
import type { PluralForms } from "../../src/messages/entries.js";
import { AREAS, MESSAGES, t } from "../../src/messages/index.js";

type Entry = string | PluralForms;

/** The `{name}` placeholders of a sentence, sorted. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

/** Every text of an entry: the sentence, or each of its plural forms. */
const textsOf = (entry: Entry) => (typeof entry === "string" ? [entry] : (Object.values(entry) as string[]));

const keys = Object.keys(MESSAGES.en) as (keyof typeof MESSAGES.en)[];

describe("the message catalogue", () => {
  it("has every key in both languages, and no two areas share a key", () => {
    expect(Object.keys(MESSAGES.he).sort()).toEqual([...keys].sort());
    const perArea = AREAS.reduce((sum, [en]) => sum + Object.keys(en).length, 0);
    expect(keys.length).toBe(perArea);
  });

  it("has the same placeholders in both languages, and Hebrew wherever English has words", () => {
    for (const key of keys) {
      const en: Entry = MESSAGES.en[key];
      const he: Entry = MESSAGES.he[key];
      const wanted = placeholders(textsOf(en)[0]!);
      for (const text of [...textsOf(en), ...textsOf(he)]) {
        expect(text.trim().length, key).toBeGreaterThan(0);
        // A plural form may spell its count out ("one note"), so it need not say {count}.
        expect(
          placeholders(text).filter((name) => name !== "count"),
          key,
        ).toEqual(wanted.filter((name) => name !== "count"));
      }
      // A sentence with English words is written in Hebrew (names like Gmail may stay Latin).
      if (
        /[a-z]{3}/i.test(
          textsOf(en)
            .join(" ")
            .replace(/\{\w+\}/g, ""),
        )
      ) {
        for (const text of textsOf(he)) expect(text, key).toMatch(/[\u0590-\u05FF]/);
      }
    }
  });

  it("gives plural entries 'one' and 'other' in both languages, and only to the same keys", () => {
    for (const key of keys) {
      const en: Entry = MESSAGES.en[key];
      const he: Entry = MESSAGES.he[key];
      expect(typeof he, key).toBe(typeof en);
      for (const entry of [en, he]) {
        if (typeof entry === "string") continue;
        expect(entry.one, key).toBeTruthy();
        expect(entry.other, key).toBeTruthy();
        expect(entry.other, key).toContain("{count}");
      }
    }
  });

  it("picks the plural form the count takes in each language", () => {
    expect(t("en", "undo.what.notes", { count: 1 })).toBe("1 note");
    expect(t("en", "undo.what.notes", { count: 2 })).toBe("2 notes");
    expect(t("he", "undo.what.notes", { count: 1 })).toBe("פתק אחד");
    expect(t("he", "undo.what.notes", { count: 2 })).toBe("2 פתקים");
    expect(t("he", "undo.what.tasks", { count: 1 })).toBe("משימה אחת");
    // Hebrew has a dual where the language uses one; without one, "two" falls back to "other".
    expect(t("he", "duration.hours", { count: 2 })).toBe("שעתיים");
    expect(t("he", "duration.hours", { count: 3 })).toBe("3 שעות");
    expect(t("en", "duration.hours", { count: 7.5 })).toBe("7.5 hours");
    // Zero, the teens and twenties, and fractions take "other" in both languages.
    for (const count of [0, 11, 21, 0.5, 1.5]) {
      expect(t("en", "duration.hours", { count })).toBe(`${count} hours`);
      expect(t("he", "duration.hours", { count })).toBe(`${count} שעות`);
    }
    expect(t("he", "duration.days", { count: 2 })).toBe("יומיים");
    expect(t("he", "duration.minutes", { count: 2 })).toBe("2 דקות");
  });

  it("fills placeholders and leaves unknown ones as written", () => {
    expect(t("en", "calendar.noEvents", { range: "today" })).toBe(
      "There are no events in your calendar today.",
    );
    expect(t("en", "onboarding.timeZoneWhich")).toContain("{place}");
  });
});
