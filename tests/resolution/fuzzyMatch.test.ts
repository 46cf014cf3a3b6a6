import { describe, expect, it } from "vitest";
import {
  decideMatch,
  matchTokens,
  normalizeForMatch,
  rankMatches,
  similarity,
  type MatchDecision,
} from "../../src/utils/fuzzy.js";

/** Items are plain names here; the matcher reads them through `textOf`. */
const byName = (name: string) => name;
const decide = (query: string, names: readonly string[]) => decideMatch(query, names, byName);

/** The names a decision offers, in its order, whatever its kind. */
function namesOf(decision: MatchDecision<string>): string[] {
  if (decision.kind === "one") return [decision.match.item];
  if (decision.kind === "several") return decision.matches.map((match) => match.item);
  return decision.closest.map((match) => match.item);
}

describe("normalizeForMatch", () => {
  it("ignores case and punctuation", () => {
    expect(normalizeForMatch("Call Mom!!")).toBe("call mom");
    expect(normalizeForMatch("  follow-up:\n\tthe  'bank'  ")).toBe("follow up the bank");
  });

  it("drops niqqud and cantillation, and Latin accents", () => {
    expect(normalizeForMatch("אִמָּא")).toBe("אמא");
    expect(normalizeForMatch("בְּרֵאשִׁ֖ית")).toBe("בראשית");
    expect(normalizeForMatch("Café Crème")).toBe("cafe creme");
    // A presentation form (U+FB2B, shin with sin dot) as some keyboards and PDFs produce it.
    expect(normalizeForMatch("\uFB2Bמחה")).toBe("שמחה");
  });

  it("writes final letters as their regular forms", () => {
    expect(normalizeForMatch("ך ם ן ף ץ")).toBe("כ מ נ פ צ");
    expect(normalizeForMatch("שלום")).toBe(normalizeForMatch("שלומ"));
  });

  it("breaks words at maqaf, geresh and gershayim", () => {
    expect(normalizeForMatch("בית־ספר")).toBe("בית ספר");
    expect(normalizeForMatch("ג׳ירפה")).toBe("ג ירפה");
    expect(normalizeForMatch('דו"ח צה״ל')).toBe("דו ח צה ל");
  });
});

describe("matchTokens", () => {
  it("leaves out words that do not identify anything", () => {
    expect(matchTokens("Call the bank")).toEqual(["call", "bank"]);
    expect(matchTokens("To call my mom about the trip")).toEqual(["call", "mom", "about", "trip"]);
    expect(matchTokens("רשימה של קניות עם אמא")).toEqual(["רשימה", "קניות", "אמא"]);
    expect(matchTokens("the")).toEqual([]);
  });
});

describe("similarity", () => {
  it("is 1 for the same name however it is written", () => {
    expect(similarity("Call Mom!!", "call mom")).toBe(1);
    expect(similarity("שלומ", "שלום")).toBe(1);
    expect(similarity("אִמָּא", "אמא")).toBe(1);
  });

  it("is below 1 for a name that only contains the query", () => {
    const score = similarity("call mom", "Call mom about the trip");
    expect(score).toBeGreaterThan(0.55);
    expect(score).toBeLessThan(1);
  });

  it("is 0 when either side is empty", () => {
    expect(similarity("", "Call mom")).toBe(0);
    expect(similarity("call mom", " !? ")).toBe(0);
  });

  it("forgives a typo or a swap in a long word but not in a short one", () => {
    expect(similarity("shoping list", "Shopping list")).toBeGreaterThan(
      similarity("shoping list", "Packing list"),
    );
    expect(similarity("dentsit", "Dentist")).toBeGreaterThan(0.55);
    // Four letters apart by one are different words: call/mall, אמא (mom)/אבא (dad).
    expect(similarity("call", "Mall")).toBeLessThan(0.55);
    expect(similarity("אמא", "אבא")).toBeLessThan(0.55);
  });

  it("sees through one Hebrew prefix letter", () => {
    expect(similarity("אמא", "להתקשר לאמא")).toBeGreaterThan(0.55);
    expect(similarity("הבנק", "בנק")).toBeGreaterThan(0.55);
  });
});

describe("rankMatches", () => {
  it("puts the best first and keeps input order on ties", () => {
    const items = [
      { id: 1, text: "להתקשר לבנק" },
      { id: 2, text: "Buy milk" },
      { id: 3, text: "להתקשר לאמא" },
    ];
    const ranked = rankMatches("להתקשר", items, (item) => item.text);
    expect(ranked.map((match) => match.item.id)).toEqual([1, 3, 2]);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
    expect(ranked[2]!.score).toBe(0);
  });

  it("ranks 2,000 items well within a turn", () => {
    const verbs = ["Call", "Buy", "Pay", "Book", "Email", "להתקשר ל", "לקנות", "לשלם"];
    const objects = ["the dentist", "mom", "milk and bread", "electricity bill", "בנק", "אמא", "ארנונה"];
    const extras = ["before Friday", "about the trip", "for the party", "לפני שבת", "בבוקר"];
    const items = Array.from(
      { length: 2000 },
      (_, i) =>
        `${verbs[i % verbs.length]} ${objects[i % objects.length]} ${extras[i % extras.length]} #${i}`,
    );
    const started = performance.now();
    const ranked = rankMatches("pay the electrcity bil", items, byName);
    const elapsed = performance.now() - started;
    expect(ranked).toHaveLength(2000);
    expect(ranked[0]!.item).toMatch(/^Pay electricity bill/);
    // Well under 50 ms on a quiet machine; 200 leaves room for a busy two-core runner.
    expect(elapsed).toBeLessThan(200);
  });
});

describe("decideMatch", () => {
  it("takes a unique exact name even when other names contain it", () => {
    expect(decide("call mom", ["Call mom", "Call mom about the trip?"])).toMatchObject({
      kind: "one",
      match: { item: "Call mom", score: 1 },
    });
    expect(decide("Call Mom!!", ["Call mom about the trip?", "call mom"])).toMatchObject({
      kind: "one",
      match: { item: "call mom" },
    });
  });

  it("asks between two items with the same name, and only those", () => {
    const decision = decide("call mom", ["Call mom", "Call mom about the trip?", "call MOM."]);
    expect(decision.kind).toBe("several");
    expect(namesOf(decision)).toEqual(["Call mom", "call MOM."]);
  });

  it("asks when a word names several items", () => {
    const calls = decide("call", ["Call mom", "Call the bank", "Buy milk"]);
    expect(calls.kind).toBe("several");
    expect(namesOf(calls)).toEqual(["Call mom", "Call the bank"]);

    const dentists = decide("dentist", ["Dentist appointment", "Pay the dentist bill", "Buy milk"]);
    expect(dentists.kind).toBe("several");
    expect(namesOf(dentists)).toEqual(["Dentist appointment", "Pay the dentist bill"]);
  });

  it("takes the one item a word or a full name points to", () => {
    expect(decide("mom", ["Call mom", "Call the bank"])).toMatchObject({
      kind: "one",
      match: { item: "Call mom" },
    });
    expect(
      decide("dentist appointment", ["Dentist appointment", "Pay the dentist bill", "Buy milk"]),
    ).toMatchObject({ kind: "one", match: { item: "Dentist appointment" } });
  });

  it("gets past typos, and a shared word does not make a tie", () => {
    expect(
      decide("dentst apointment", ["Dentist appointment", "Pay the dentist bill", "Buy milk"]),
    ).toMatchObject({
      kind: "one",
      match: { item: "Dentist appointment" },
    });
    expect(decide("shoping list", ["Shopping list", "Packing list"])).toMatchObject({
      kind: "one",
      match: { item: "Shopping list" },
    });
  });

  it("understands Hebrew names, prefixes, niqqud and final letters", () => {
    const calls = ["להתקשר לאמא", "להתקשר לבנק"];
    expect(decide("להתקשר לאמא", calls)).toMatchObject({ kind: "one", match: { item: "להתקשר לאמא" } });
    expect(decide("אמא", calls)).toMatchObject({ kind: "one", match: { item: "להתקשר לאמא" } });
    expect(decide("אִמָּא", calls)).toMatchObject({ kind: "one", match: { item: "להתקשר לאמא" } });
    expect(decide("להתקשר", calls).kind).toBe("several");
    expect(decide("שלומ", ["שלום", "שלום לכולם"])).toMatchObject({ kind: "one", match: { item: "שלום" } });
  });

  it("prefers the Hebrew list the query fully names", () => {
    expect(decide("רשימת קניות", ["קניות", "רשימת ציוד לטיול"])).toMatchObject({
      kind: "one",
      match: { item: "קניות" },
    });
    const shopping = decide("קניות", ["רשימת קניות", "קניות לשבת"]);
    expect(shopping.kind).toBe("several");
    // Both are about shopping; which one is first does not matter, that both are offered does.
    expect(namesOf(shopping).sort()).toEqual(["קניות לשבת", "רשימת קניות"].sort());
  });

  it("finds nothing among unrelated items, offering only names that are close", () => {
    expect(decide("xyz", ["Call mom", "Buy milk", "Dentist appointment"])).toEqual({
      kind: "none",
      closest: [],
    });

    const electricity = decide("לשלם חשבון חשמל", ["להתקשר לאמא", "לשלם ארנונה", "קניות", "Buy milk"]);
    expect(electricity.kind).toBe("none");
    expect(namesOf(electricity)).toEqual(["לשלם ארנונה"]);
  });

  it("does not act on a name that shares only half of what the user said", () => {
    const decision = decide("shopping list", ["Buy milk", "Packing list"]);
    expect(decision.kind).toBe("none");
    expect(namesOf(decision)).toEqual(["Packing list"]);
  });

  it("ignores naming fillers: 'the dentist thing' is 'dentist', so both dentists are asked about", () => {
    const decision = decide("the dentist thing", ["Dentist appointment", "Pay the dentist bill", "Buy milk"]);
    expect(decision.kind).toBe("several");
    expect(namesOf(decision).sort()).toEqual(["Dentist appointment", "Pay the dentist bill"]);
    expect(decide("the plumber task", ["Call the plumber", "Buy milk"]).kind).toBe("one");
    expect(decide("המשימה של הבנק", ["להתקשר לבנק", "לקנות חלב"]).kind).toBe("one");
  });

  it("offers at most three closest names, best first", () => {
    const lists = ["Packing list", "Reading list for the summer", "Guest list", "Wish list", "Buy milk"];
    const decision = decide("shopping list", lists);
    expect(decision.kind).toBe("none");
    if (decision.kind !== "none") return;
    expect(decision.closest).toHaveLength(3);
    const scores = decision.closest.map((match) => match.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(namesOf(decision)).not.toContain("Buy milk");
  });

  it("finds nothing for an empty list or an empty query", () => {
    expect(decide("call mom", [])).toEqual({ kind: "none", closest: [] });
    expect(decide("   ", ["Call mom"])).toEqual({ kind: "none", closest: [] });
    expect(decide("?!", ["Call mom"])).toEqual({ kind: "none", closest: [] });
  });

  it("finds a name of symbols only by itself, and a name written exactly before one said alike", () => {
    const names = ["Shopping", "%", "_", "100", "100_%"];
    expect(decide("%", names)).toMatchObject({ kind: "one", match: { item: "%", score: 1 } });
    expect(decide("_", names)).toMatchObject({ kind: "one", match: { item: "_" } });
    expect(decide("%%", names)).toEqual({ kind: "none", closest: [] });
    expect(decide("100_%", names)).toMatchObject({ kind: "one", match: { item: "100_%" } });
    expect(decide("100", names)).toMatchObject({ kind: "one", match: { item: "100" } });
    // Said alike but written like neither: both are asked about.
    expect(namesOf(decide("100%", names))).toEqual(["100", "100_%"]);
  });

  it("reads through zero-width characters and direction marks", () => {
    expect(normalizeForMatch("mi\u200Blk\u200F")).toBe("milk");
    expect(decide("\u200Fמשימה\u200F 2", ["משימה 2", "משימה 3"])).toMatchObject({
      kind: "one",
      match: { item: "משימה 2", score: 1 },
    });
  });

  it("lets the caller change how sure a match must be", () => {
    const names = ["Dentist appointment", "Pay the dentist bill"];
    expect(decideMatch("dentist", names, byName, { margin: 0.01 })).toMatchObject({
      kind: "one",
      match: { item: "Dentist appointment" },
    });
    expect(decideMatch("dentist", names, byName, { threshold: 0.95 }).kind).toBe("none");
  });
});
