/**
 * The long-memory evaluation's data is what it claims to be (docs/EVALS.md): enough questions in
 * both languages and every category, each pointing at extraction items that exist, asked after its
 * history, and each category's keys of the kind the category is about: a knowledge update's key is
 * the newest of its subject and attribute, a temporal question's key held during the period it
 * names, a multi-session question needs two sessions, an abstention has nothing to find.
 */
import {
  loadMemoryDataset,
  localInstant,
  MESSAGE_SPACING_MINUTES,
  QUESTION_CATEGORIES,
  type ExtractedFact,
  type History,
  type HistoryCase,
} from "../../evals/memory/dataset.js";

const dataset = loadMemoryDataset();
const byId = new Map(dataset.cases.map((c) => [c.history.id, c]));
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The evaluation's histories all happen before this day (the day the dataset was written). */
const WRITTEN_ON = Date.UTC(2026, 10, 28);

/** Each session's [start, end] instants; a message is at `at` + n spacing minutes. */
function sessionSpans(history: History): Array<[number, number]> {
  return history.sessions.map((session) => {
    const start = localInstant(session.at, history.timeZone);
    return [start, start + session.messages.length * MESSAGE_SPACING_MINUTES * MINUTE_MS];
  });
}

/** The index of the session an instant falls in, or -1. */
function sessionOf(history: History, instant: number): number {
  return sessionSpans(history).findIndex(([start, end]) => instant >= start && instant <= end);
}

/** When an extraction item was said, happened, or its chunk started. */
function itemTime(c: HistoryCase, key: string): number {
  const zone = c.history.timeZone;
  const fact = c.extraction.facts.find((f) => f.key === key);
  if (fact) return localInstant(fact.saidAt, zone);
  const episode = c.extraction.episodes.find((e) => e.key === key);
  if (episode) return localInstant(episode.occurredAt, zone);
  const chunk = c.extraction.chunks.find((ch) => ch.key === key);
  if (chunk) return localInstant(chunk.startedAt, zone);
  throw new Error(`${c.history.id}: no item ${key}`);
}

function sameSlot(a: ExtractedFact, b: ExtractedFact): boolean {
  return a.attribute !== null && a.subject === b.subject && a.attribute === b.attribute;
}

/** The instant a fact stopped being true: the start of the next fact about the same subject and attribute. */
function validityOf(c: HistoryCase, fact: ExtractedFact): { from: number; until: number | null } {
  const zone = c.history.timeZone;
  const facts = c.extraction.facts;
  const later = facts.slice(facts.indexOf(fact) + 1).find((f) => sameSlot(f, fact));
  return {
    from: localInstant(fact.validFrom ?? fact.saidAt, zone),
    until: later ? localInstant(later.validFrom ?? later.saidAt, zone) : null,
  };
}

describe("the long-memory evaluation's dataset", () => {
  it("has at least 150 questions, 60 in Hebrew, 20 in each category, with unique ids", () => {
    const { questions } = dataset;
    expect(questions.length).toBeGreaterThanOrEqual(150);
    expect(questions.filter((q) => q.language === "he").length).toBeGreaterThanOrEqual(60);
    for (const category of QUESTION_CATEGORIES) {
      expect(questions.filter((q) => q.category === category).length, category).toBeGreaterThanOrEqual(20);
    }
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
  });

  it("has histories in both languages, over months, in real zones, before the day it was written", () => {
    expect(dataset.cases.length).toBeGreaterThanOrEqual(16);
    for (const language of ["en", "he"] as const) {
      expect(dataset.cases.filter((c) => c.history.language === language).length).toBeGreaterThanOrEqual(8);
    }
    for (const { history } of dataset.cases) {
      const starts = sessionSpans(history).map(([start]) => start);
      expect(starts, history.id).toEqual([...starts].sort((a, b) => a - b));
      expect(starts.at(-1)! - starts[0]!, `${history.id} spans a month or more`).toBeGreaterThan(28 * DAY_MS);
      expect(starts.at(-1)!, history.id).toBeLessThan(WRITTEN_ON);
      // The first and last sessions open with the user (a history is what the user told Memo).
      for (const session of history.sessions) expect(session.messages[0]!.role, history.id).toBe("user");
    }
  });

  it("has extraction items with unique keys, each said in a session of its history", () => {
    for (const c of dataset.cases) {
      const { facts, episodes, chunks } = c.extraction;
      const keys = [...facts, ...episodes, ...chunks].map((item) => item.key);
      expect(new Set(keys).size, c.history.id).toBe(keys.length);
      const zone = c.history.timeZone;
      for (const fact of facts) {
        expect(
          sessionOf(c.history, localInstant(fact.saidAt, zone)),
          `${c.history.id} ${fact.key}`,
        ).toBeGreaterThanOrEqual(0);
        if (fact.validFrom) {
          expect(localInstant(fact.validFrom, zone), `${c.history.id} ${fact.key}`).toBeLessThanOrEqual(
            localInstant(fact.saidAt, zone),
          );
        }
      }
      for (const episode of episodes) {
        expect(
          sessionOf(c.history, localInstant(episode.occurredAt, zone)),
          `${c.history.id} ${episode.key}`,
        ).toBeGreaterThanOrEqual(0);
      }
      for (const chunk of chunks) {
        const session = sessionOf(c.history, localInstant(chunk.startedAt, zone));
        expect(session, `${c.history.id} ${chunk.key}`).toBeGreaterThanOrEqual(0);
        expect(sessionOf(c.history, localInstant(chunk.endedAt, zone)), `${c.history.id} ${chunk.key}`).toBe(
          session,
        );
      }
    }
  });

  it("asks each question of an existing history, in its language, after it, about items that exist", () => {
    for (const q of dataset.questions) {
      const c = byId.get(q.history);
      expect(c, q.id).toBeDefined();
      expect(q.language, q.id).toBe(c!.history.language);
      const spans = sessionSpans(c!.history);
      expect(localInstant(q.askedAt, c!.history.timeZone), q.id).toBeGreaterThan(spans.at(-1)![1]);
      const keys = new Set(
        [...c!.extraction.facts, ...c!.extraction.episodes, ...c!.extraction.chunks].map((i) => i.key),
      );
      for (const key of q.expect.keys) expect(keys.has(key), `${q.id} ${key}`).toBe(true);
      expect(new Set(q.expect.keys).size, q.id).toBe(q.expect.keys.length);
    }
  });

  it("gives abstentions nothing to find, and every other question keys and answers", () => {
    for (const q of dataset.questions) {
      if (q.category === "abstention") {
        expect(q.expect, q.id).toEqual({ keys: [], answer: [], abstain: true });
      } else {
        expect(q.expect.abstain, q.id).toBeUndefined();
        expect(q.expect.keys.length, q.id).toBeGreaterThan(0);
        expect(q.expect.answer.length, q.id).toBeGreaterThan(0);
        for (const answer of q.expect.answer) expect(answer, q.id).toBe(answer.toLowerCase());
      }
    }
  });

  it("keys a knowledge update to the newest fact of a subject and attribute that changed", () => {
    for (const q of dataset.questions.filter((q) => q.category === "knowledge_update")) {
      const c = byId.get(q.history)!;
      for (const key of q.expect.keys) {
        const fact = c.extraction.facts.find((f) => f.key === key);
        expect(fact, `${q.id} ${key} is a fact`).toBeDefined();
        const facts = c.extraction.facts;
        const index = facts.indexOf(fact!);
        expect(
          facts.slice(0, index).some((f) => sameSlot(f, fact!)),
          `${q.id} ${key} replaced an older fact`,
        ).toBe(true);
        expect(validityOf(c, fact!).until, `${q.id} ${key} is still true`).toBeNull();
      }
    }
  });

  it("keys a temporal question to a replaced fact true in its period, or an episode or chunk within it", () => {
    for (const q of dataset.questions.filter((q) => q.category === "temporal")) {
      const c = byId.get(q.history)!;
      const zone = c.history.timeZone;
      expect(q.period, `${q.id} names its period`).toBeDefined();
      const from = localInstant(q.period!.from, zone);
      const to = localInstant(q.period!.to, zone) + DAY_MS;
      expect(to, `${q.id} period before askedAt`).toBeLessThanOrEqual(localInstant(q.askedAt, zone) + DAY_MS);
      for (const key of q.expect.keys) {
        const fact = c.extraction.facts.find((f) => f.key === key);
        if (fact) {
          const validity = validityOf(c, fact);
          expect(validity.until, `${q.id} ${key} was replaced`).not.toBeNull();
          expect(validity.from < to && validity.until! > from, `${q.id} ${key} held in the period`).toBe(
            true,
          );
        } else {
          const at = itemTime(c, key);
          expect(at >= from && at < to, `${q.id} ${key} within the period`).toBe(true);
        }
      }
    }
  });

  it("keys an episode question to episodes, a person question to facts about a person", () => {
    for (const q of dataset.questions.filter((q) => q.category === "episode")) {
      const episodes = new Set(byId.get(q.history)!.extraction.episodes.map((e) => e.key));
      for (const key of q.expect.keys) expect(episodes.has(key), `${q.id} ${key}`).toBe(true);
    }
    for (const q of dataset.questions.filter((q) => q.category === "person")) {
      const c = byId.get(q.history)!;
      for (const key of q.expect.keys) {
        const fact = c.extraction.facts.find((f) => f.key === key);
        expect(fact, `${q.id} ${key} is a fact`).toBeDefined();
        expect(
          fact!.subject !== "user" || (fact!.people?.length ?? 0) > 0,
          `${q.id} ${key} is about a person`,
        ).toBe(true);
      }
    }
  });

  it("keys a multi-session question to items from at least two sessions", () => {
    for (const q of dataset.questions.filter((q) => q.category === "multi_session")) {
      const c = byId.get(q.history)!;
      const sessions = new Set(q.expect.keys.map((key) => sessionOf(c.history, itemTime(c, key))));
      expect(sessions.size, q.id).toBeGreaterThanOrEqual(2);
    }
  });
});
