/**
 * The offer of what a stored document proposes (issue 37): its dates, deadlines and payments as a
 * numbered list, each time read whole by the time parser in the user's zone (D6, D10). Without a
 * model the items are the sentences with a date (nlu/documentDates.ts); with one, the model names
 * better titles and pairs times with their day, handing over the document's own words, which code
 * reads: words that do not read whole make a question item, never a guessed time.
 */
import { buildDocumentOffersMessages, DocumentOffersSchema } from "../../prompts/documentOffersPrompt.js";
import { documentDates, readItemTime } from "../../nlu/documentDates.js";
import { dateLabel, instantToLocal } from "../../nlu/zonedTime.js";
import { t } from "../../messages/index.js";
import type { DocumentOffer, DocumentOfferMaker, OfferItem } from "../../types/document.js";
import type { LLMService, LLMUsage } from "../../types/llm.js";
import type { LLMBudget } from "../llm/llmBudget.js";
import type { Logger } from "../../utils/logger.js";

type Input = Parameters<DocumentOfferMaker["offer"]>[0];
type Made = Awaited<ReturnType<DocumentOfferMaker["offer"]>>;

/** Items a model's answer may hold; more are cut. */
const MAX_ITEMS = 10;

/** A local wall time "YYYY-MM-DD[THH:mm]" as the user reads it: "Thu 11/03 08:15". */
function whenLabel(local: string, language: "he" | "en"): string {
  const [y, m, d] = local.slice(0, 10).split("-").map(Number);
  const day = dateLabel({ year: y!, month: m!, day: d! }, language);
  return local.length > 10 ? `${day} ${local.slice(11, 16)}` : day;
}

/** An item's time as the offer and the answer show it: "Thu 11/03 08:15–14:30". */
function itemWhen(item: OfferItem, language: "he" | "en"): string {
  if (!item.start) return "";
  const start = whenLabel(item.start, language);
  if (!item.end) return start;
  return item.end.slice(0, 10) === item.start.slice(0, 10)
    ? `${start}–${item.end.slice(11, 16)}`
    : `${start} – ${whenLabel(item.end, language)}`;
}

/** The offer's message: its heading, one numbered line per item, and how to answer. */
function offerText(offer: DocumentOffer, language: "he" | "en"): string {
  const lines = offer.items.map((item, i) => {
    const vars = { n: i + 1, title: item.title, when: itemWhen(item, language) };
    if (!item.start && item.day)
      return t(language, "offers.timeUnread", { ...vars, when: whenLabel(item.day, language) });
    if (!item.start) return t(language, "offers.question", vars);
    return t(language, item.kind === "reminder" ? "offers.reminder" : "offers.event", vars);
  });
  return [t(language, "offers.heading", { title: offer.title }), ...lines, t(language, "offers.footer")].join(
    "\n",
  );
}

/**
 * The words of a text as compared: lower case, Hebrew and digits glued by extraction set apart,
 * punctuation dropped (":" "." "/" inside a number kept: "08:15", "11/3"), a number's leading
 * zeros dropped ("08:15" is "8:15", never "18:15").
 */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/(\d)(?=[\u05D0-\u05EA])|([\u05D0-\u05EA])(?=\d)/gu, "$1$2 ")
    .replace(/[^\p{L}\p{N}:./']+/gu, " ")
    .split(" ")
    .map((word) => word.replace(/^[:./']+|[:./']+$/gu, "").replace(/^0+(?=\d)/u, ""))
    .filter((word) => word !== "");
}

/** Where `run` is written in `words`, word for word in a row (-1: nowhere). */
function runAt(run: readonly string[], words: readonly string[], from = 0): number[] {
  const at: number[] = [];
  for (let i = from; i + run.length <= words.length; i++) {
    if (run.every((word, j) => words[i + j] === word)) at.push(i);
  }
  return at;
}

/** Words apart a day and a clock time said for it may be (the same or the next sentence). */
const CLOCK_REACH = 40;

/**
 * Whether `words` are written in `text` as the document wrote them (the model copied them, it did
 * not work them out): word for word in a row, or a day's words in a row and a clock time's in a row
 * near it ("Thursday 11 March 2027" … "at 08:15"). A word inside another ("7" in "17") is not it.
 */
function writtenIn(words: string, text: string): boolean {
  const said = wordsOf(words);
  if (said.length === 0) return true;
  const doc = wordsOf(text);
  if (runAt(said, doc).length > 0) return true;
  for (let cut = 1; cut < said.length; cut++) {
    const [first, second] = [said.slice(0, cut), said.slice(cut)];
    const clock = (run: string[]) => run.some((word) => /^\d{1,2}[:.]\d{2}$/u.test(word));
    if (!clock(first) && !clock(second)) continue;
    const firsts = runAt(first, doc);
    const seconds = runAt(second, doc);
    if (firsts.some((a) => seconds.some((b) => Math.abs(a - b) <= CLOCK_REACH))) return true;
  }
  return false;
}

/** One item per title and time: a model may name the same thing twice. */
function deduplicated(items: readonly OfferItem[]): OfferItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = [item.title.toLowerCase(), item.start ?? item.day ?? item.timeWords, item.kind].join("|");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Makes a document's offer, with a model when one is configured (its cost is the user's turn's). */
export class DocumentOffers implements DocumentOfferMaker {
  constructor(
    private readonly llm: LLMService | null,
    private readonly logger?: Logger,
    /** The per-user daily budget: once spent, the offer is made without the model. */
    private readonly budget?: Pick<LLMBudget, "admit">,
  ) {}

  async offer(input: Input): Promise<Made> {
    const withModel = this.llm !== null && (!this.budget || (await this.budget.admit(input.user.phone)));
    return (await this.offerWithUsage(input, withModel)).made;
  }

  /**
   * The offer and what its model call cost (null without one), for a graph turn's usage;
   * `withModel` false makes it without the model (the user's daily budget is spent; default: true).
   */
  async offerWithUsage(input: Input, withModel = true): Promise<{ made: Made; usage: LLMUsage | null }> {
    const zone = input.user.timeZone;
    let items: OfferItem[] | null = null;
    let usage: LLMUsage | null = null;
    if (this.llm && withModel) {
      try {
        const answer = await this.modelItems(input);
        items = answer.items;
        usage = answer.usage;
      } catch (error) {
        // The offer without a model is still right, only plainer.
        this.logger?.warn(
          { err: error, event: "DOCUMENT_OFFER_MODEL_FAILED" },
          "document offer: model failed",
        );
      }
    }
    items ??= documentDates(input.pages, input.now, zone);
    items = deduplicated(items);
    if (items.length === 0) return { made: null, usage };
    const offer: DocumentOffer = {
      documentId: input.document.documentId || null,
      title: input.document.title,
      items,
      offeredAt: input.now,
    };
    return { made: { text: offerText(offer, input.language), offer }, usage };
  }

  /** The model's items, each time read in code from the words it copied (D10). */
  private async modelItems(input: Input): Promise<{ items: OfferItem[]; usage: LLMUsage }> {
    const llm = this.llm!;
    const zone = input.user.timeZone;
    const local = instantToLocal(input.now, zone);
    const today = `${local.year}-${String(local.month).padStart(2, "0")}-${String(local.day).padStart(2, "0")}`;
    const { value, usage } = await llm.structured(
      "documentOffers",
      DocumentOffersSchema,
      buildDocumentOffersMessages({
        language: input.language,
        title: input.document.title,
        pages: input.pages,
        today,
      }),
      { name: "document_offers" },
    );
    const text = input.pages.join("\n");
    const items: OfferItem[] = [];
    for (const proposed of value.items.slice(0, MAX_ITEMS)) {
      const title = proposed.title.trim() || proposed.sentence.trim();
      if (!title) continue;
      // Words the document does not hold (a date the model worked out) are no time of the document's.
      const copied = [proposed.timeWords, proposed.endTimeWords ?? ""].every((words) =>
        writtenIn(words, text),
      );
      const time = copied ? readItemTime(proposed.timeWords, proposed.endTimeWords, input.now, zone) : null;
      // A time already behind is dropped, as without a model.
      if (time?.kind === "past") continue;
      const page = input.pages.findIndex(
        (p) => proposed.sentence && p.includes(proposed.sentence.slice(0, 30)),
      );
      items.push({
        kind: proposed.kind,
        title: title.slice(0, 80),
        timeWords: proposed.timeWords,
        ...(time?.kind === "at" ? { start: time.start, ...(time.end ? { end: time.end } : {}) } : {}),
        ...(time?.kind === "day" ? { day: time.day } : {}),
        sentence: proposed.sentence.slice(0, 200),
        ...(input.pages.length > 1 && page >= 0 ? { page: page + 1 } : {}),
      });
    }
    return { items, usage };
  }
}
