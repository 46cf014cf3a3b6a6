import { describe, expect, it } from "vitest";
import { MESSAGES, t } from "../../src/messages/index.js";
import { describeCapabilities } from "../../src/graph/executors/generalExecutor.js";

describe("user-facing templates", () => {
  it("exist in Hebrew and English for every key, and the Hebrew is Hebrew", () => {
    expect(Object.keys(MESSAGES.he).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const key of Object.keys(MESSAGES.en) as (keyof typeof MESSAGES.en)[]) {
      expect(MESSAGES.he[key].length, key).toBeGreaterThan(0);
      // Every Hebrew sentence has Hebrew letters (the LLM and env names inside may stay Latin).
      expect(MESSAGES.he[key], key).toMatch(/[\u0590-\u05FF]/);
    }
  });

  it("fill their placeholders", () => {
    expect(t("en", "capabilityUnavailable", { capability: "notes" })).toBe("I can't help with notes yet.");
    expect(t("he", "missingFields", { fields: "שעה" })).toBe("חסר לי עוד קצת מידע: שעה.");
  });

  it("describe only the capabilities that are running, in both languages", () => {
    const en = describeCapabilities("en", ["general", "meta"]);
    expect(en).toContain("*Questions*");
    expect(en).not.toContain("*Calendar*");
    expect(describeCapabilities("he", ["database", "general"])).toContain("*משימות ותזכורות*");
  });
});
