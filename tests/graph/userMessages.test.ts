import { describe, expect, it } from "vitest";
import { t } from "../../src/messages/index.js";
import { describeCapabilities } from "../../src/graph/capabilities/core/coreExecutors.js";

describe("user-facing templates", () => {
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
