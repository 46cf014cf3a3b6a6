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
    if (!item.start) return t(language, "offers.question", vars);
    return t(language, item.kind === "reminder" ? "offers.reminder" : "offers.event", vars);
  });
  return [t(language, "offers.heading", { title: offer.title }), ...lines, t(language, "offers.footer")].join(
    "\n",
  );
}

/** Lower case, Hebrew and digits glued by extraction set apart, spaces folded. */
function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/(\d)(?=[\u05D0-\u05EA])|([\u05D0-\u05EA])(?=\d)/gu, "$1$2 ")
    .replace(/\s+/gu, " ");
}

/** Whether every word of `words` is written in `text` (the model copied them, it did not work them out). */
function writtenIn(words: string, text: string): boolean {
  const said = comparable(text);
  return comparable(words)
    .split(/[\s,;]+/u)
    .map((word) => word.replace(/^[("'„“]+|[.)"'”:]+$/gu, ""))
    .filter((word) => word !== "" && word !== "-" && word !== "–")
    .every((word) => said.includes(word));
}

/** Makes a document's offer, with a model when one is configured (its cost is the user's turn's). */
export class DocumentOffers implements DocumentOfferMaker {
  constructor(
    private readonly llm: LLMService | null,
    private readonly logger?: Logger,
  ) {}

  async offer(input: Input): Promise<Made> {
    return (await this.offerWithUsage(input)).made;
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
      "resolver:second-brain",
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
      const page = input.pages.findIndex(
        (p) => proposed.sentence && p.includes(proposed.sentence.slice(0, 30)),
      );
      items.push({
        kind: proposed.kind,
        title: title.slice(0, 80),
        timeWords: proposed.timeWords,
        ...(time ?? {}),
        sentence: proposed.sentence.slice(0, 200),
        ...(input.pages.length > 1 && page >= 0 ? { page: page + 1 } : {}),
      });
    }
    return { items, usage };
  }
}
