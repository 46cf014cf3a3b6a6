import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRIEVAL_WEIGHTS,
  rankMemories,
  type MemoryItem,
} from "../../src/services/memory/retrieval.js";
import { noteSearchText } from "../../src/utils/searchText.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);

function item(id: string, text: string, extra: Partial<MemoryItem> = {}): MemoryItem {
  return {
    kind: "fact",
    id,
    text,
    searchText: noteSearchText(text),
    importance: 0.5,
    accessCount: 0,
    lastAccessedAt: NOW - 10 * DAY,
    at: NOW - 10 * DAY,
    ...extra,
  };
}

describe("spec 004 retrieval", () => {
  it("uses 004's weights by default: 0.4 / 0.3 / 0.2 / 0.1 / 0", () => {
    expect(DEFAULT_RETRIEVAL_WEIGHTS).toEqual({
      semantic: 0.4,
      keyword: 0.3,
      recency: 0.2,
      importance: 0.1,
      access: 0,
    });
  });

  it("scores the weighted mean of the five strategies", () => {
    const [ranked] = rankMemories({ text: "coffee", now: NOW }, [
      item("a", "Likes black coffee", { at: NOW, lastAccessedAt: NOW, importance: 0.6 }),
    ]);
    const { semantic, keyword, recency, importance, access } = ranked!.scores;
    expect(keyword).toBe(0.5); // one of two words for a full match
    expect(recency).toBe(1);
    expect(importance).toBe(0.6);
    expect(access).toBe(0);
    expect(ranked!.score).toBeCloseTo((0.4 * semantic + 0.3 * keyword + 0.2 + 0.1 * 0.6) / 1, 10);
  });

  it("weights are configuration: recency alone puts the newest first", () => {
    const items = [
      item("old", "Likes coffee", { at: NOW - 90 * DAY }),
      item("new", "Has a dog", { at: NOW }),
    ];
    const words = rankMemories({ text: "coffee", now: NOW }, items);
    expect(words[0]!.item.id).toBe("old");
    const recent = rankMemories(
      {
        text: "coffee",
        now: NOW,
        weights: { semantic: 0, keyword: 0, recency: 1, importance: 0, access: 0 },
      },
      items,
    );
    expect(recent[0]!.item.id).toBe("new");
  });

  it("TF-IDF: a word most memories share counts less than a rare one", () => {
    const items = [
      item("trip1", "Trip budget is 5000"),
      item("trip2", "Trip to Rome in May"),
      item("trip3", "Trip insurance is paid"),
      item("dentist", "Dentist is Dr. Cohen"),
    ];
    const ranked = rankMemories({ text: "trip dentist", now: NOW }, items);
    const dentist = ranked.find((r) => r.item.id === "dentist")!;
    const trip = ranked.find((r) => r.item.id === "trip1")!;
    expect(dentist.scores.semantic).toBeGreaterThan(trip.scores.semantic);
  });

  it("a person named finds what is linked to them through an entity fact", () => {
    const items = [
      item("link", "User's sister is Dana", { people: ["sister", "dana"], links: true }),
      item("bday", "User's sister's birthday is May 3", { people: ["sister"] }),
      item("tea", "Prefers tea"),
    ];
    const ranked = rankMemories({ text: "when is Dana's birthday?", now: NOW }, items, {
      minRelevance: 0.25,
    });
    expect(ranked.map((r) => r.item.id).sort()).toEqual(["bday", "link"]);
    // Without the link, "Dana" names nobody in the sister's facts.
    const alone = rankMemories({ text: "when is Dana's party?", now: NOW }, [items[1]!, items[2]!], {
      minRelevance: 0.25,
    });
    expect(alone).toEqual([]);
  });

  it("a period keeps facts true at some time in it, and episodes inside it", () => {
    const march = { from: Date.UTC(2026, 2, 1), to: Date.UTC(2026, 3, 1) };
    const items = [
      item("telaviv", "Lives in Tel Aviv", { at: Date.UTC(2026, 0, 5), until: Date.UTC(2026, 10, 8) }),
      item("haifa", "Lives in Haifa", { at: Date.UTC(2026, 10, 8) }),
      item("trip", "Decided on Rome", { kind: "episode", at: Date.UTC(2026, 2, 10) }),
      item("later", "Decided on Paris", { kind: "episode", at: Date.UTC(2026, 5, 10) }),
    ];
    const ranked = rankMemories({ text: "live decided", now: NOW, during: march }, items);
    expect(ranked.map((r) => r.item.id).sort()).toEqual(["telaviv", "trip"]);
  });

  it("compares by embeddings when both sides have one, above the model's noise floor", () => {
    const items = [
      item("car", "Drives a Mazda", { embedding: [1, 0, 0] }),
      item("tea", "Prefers tea", { embedding: [0, 1, 0] }),
    ];
    const ranked = rankMemories(
      { text: "automobile", now: NOW, embedding: [0.9, 0.1, 0], minSimilarity: 0.3 },
      items,
      { minRelevance: 0.25 },
    );
    expect(ranked.map((r) => r.item.id)).toEqual(["car"]);
  });

  it("ranks ties the same way every time", () => {
    const items = ["b", "a", "c"].map((id) => item(id, "Likes coffee"));
    const once = rankMemories({ text: "coffee", now: NOW }, items).map((r) => r.item.id);
    const again = rankMemories({ text: "coffee", now: NOW }, [...items].reverse()).map((r) => r.item.id);
    expect(once).toEqual(["a", "b", "c"]);
    expect(again).toEqual(once);
  });
});
