// The reply to a delete that took a document and a note names both (issue 37 review).
import { describe, expect, it } from "vitest";
import { secondBrainTemplate } from "../../src/graph/capabilities/secondBrain/secondBrainReplies.js";

type Formatted = Parameters<typeof secondBrainTemplate>[0];

const deleted = (notes: { id: string; quote: string }[], documents: string[]) =>
  ({
    operation: "notes.delete",
    rawData: { kind: "deleted", notes: notes.map((n) => ({ ...n, date: "1 Mar" })), documents },
  }) as unknown as Formatted;

describe("deleting notes and documents together", () => {
  it("names the note and the document", () => {
    const text = secondBrainTemplate(
      deleted(
        [
          { id: "n", quote: "gate code 4412" },
          { id: "d", quote: "📄 School letter" },
        ],
        ["School letter"],
      ),
      "en",
    );
    expect(text).toContain("Deleted the note “gate code 4412”");
    expect(text).toContain('Deleted the document "School letter"');
  });

  it("a document alone is named alone, in Hebrew too", () => {
    const text = secondBrainTemplate(deleted([{ id: "d", quote: "📄 מכתב" }], ["מכתב"]), "he");
    expect(text).toBe("🗑️ מחקתי את המסמך „מכתב” עם הטקסט שלו.");
  });
});
