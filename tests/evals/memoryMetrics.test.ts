/**
 * How the long-memory evaluation scores (docs/EVALS.md): recall@k, an abstention in scripted mode,
 * and a model's reply (an accepted answer in either language, or Memo saying it does not know).
 */
import { holdsAnswer, recallAtK, saysDoesNotKnow, scoreTable } from "../../evals/memory/metrics.js";
import { scoreReply } from "../../evals/memory/modelRun.js";
import { scoreRecall } from "../../evals/memory/scripted.js";
import type { Question } from "../../evals/memory/dataset.js";

const question = (overrides: Partial<Question> = {}): Question => ({
  id: "q",
  history: "h",
  language: "en",
  category: "person",
  askedAt: "2026-07-01T10:00",
  question: "When is my sister's birthday?",
  expect: { keys: ["f11"], answer: ["july 14", "14/7"] },
  ...overrides,
});
const abstention = question({ category: "abstention", expect: { keys: [], answer: [], abstain: true } });

describe("recall@k", () => {
  it("is the share of the expected keys among the first k", () => {
    expect(recallAtK(["f1", "f2"], ["f3", "f1", "f9", "f2"], 2)).toBe(0.5);
    expect(recallAtK(["f1", "f2"], ["f3", "f1", "f9", "f2"], 4)).toBe(1);
    expect(recallAtK(["f1"], [], 5)).toBe(0);
  });

  it("scores an abstention 1 only when nothing recalled counts as relevant", () => {
    expect(scoreRecall(abstention, [{ key: "f1", kind: "fact", score: 0.2, relevant: false }], 5)).toBe(1);
    expect(scoreRecall(abstention, [{ key: "e1", kind: "episode", score: 0.4, relevant: true }], 5)).toBe(0);
    expect(scoreRecall(question(), [{ key: "f11", kind: "fact", score: 0.4, relevant: true }], 5)).toBe(1);
  });

  it("counts each expected key among the first k recalled items, of any kind (one ranking)", () => {
    const item = (key: string, kind: "fact" | "episode") => ({ key, kind, score: 1, relevant: true });
    const recalled = [item("f1", "fact"), item("e1", "episode"), item("f2", "fact"), item("f3", "fact")];
    const needs = question({ expect: { keys: ["f3", "e1"], answer: ["x"] } });
    expect(scoreRecall(needs, recalled, 1)).toBe(0);
    expect(scoreRecall(needs, recalled, 2)).toBe(0.5);
    expect(scoreRecall(needs, recalled, 4)).toBe(1);
  });
});

describe("a model's reply", () => {
  it("holds an answer whatever its case, niqqud, final letters or number separators", () => {
    expect(holdsAnswer("Dana's birthday is on July 14.", ["july 14"])).toBe(true);
    expect(holdsAnswer("They paid 1200 shekels", ["1,200"])).toBe(true);
    expect(holdsAnswer("הַחֲתֻנָּה בְּ-2 בנובמבר", ["2 בנובמבר"])).toBe(true);
    expect(holdsAnswer("גרה בשכונת בקעה", ["בקעה"])).toBe(true);
    expect(holdsAnswer("He was struggling with reading", ["struggl"])).toBe(true);
  });

  it("does not hold an answer found only inside another word or number", () => {
    expect(holdsAnswer("She turns 15 next week", ["5"])).toBe(false);
    expect(holdsAnswer("Your budget is 18,000", ["8,000"])).toBe(false);
  });

  it("says Memo does not know, in English and in Hebrew", () => {
    expect(saysDoesNotKnow("I don't know your dentist's name — you haven't told me.")).toBe(true);
    expect(saysDoesNotKnow("אני לא יודע, לא סיפרת לי על זה.")).toBe(true);
    expect(saysDoesNotKnow("Your dentist is Dr. Cohen.")).toBe(false);
    expect(scoreReply(abstention, "אין לי מידע על זה")).toBe(1);
    expect(scoreReply(question(), "It's on 14/7")).toBe(1);
    expect(scoreReply(question(), "I don't know")).toBe(0);
  });
});

describe("the score table", () => {
  it("averages per category and language, with an overall row", () => {
    const rows = scoreTable([
      { question: question(), score: 1, detail: "" },
      { question: question({ language: "he" }), score: 0, detail: "" },
      { question: abstention, score: 1, detail: "" },
    ]);
    expect(rows.map((r) => [r.category, r.count, r.all, r.en, r.he])).toEqual([
      ["person", 2, 0.5, 1, 0],
      ["abstention", 1, 1, 1, null],
      ["all", 3, 2 / 3, 1, 0],
    ]);
  });
});
