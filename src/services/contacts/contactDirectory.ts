import { z } from "zod";
import type { ContactRepository, GivenContact } from "../../db/repositories/contactRepository.js";
import { GOOGLE_TIMEOUT_MS, type GoogleAccounts } from "../google/types.js";
import type { Logger } from "../../utils/logger.js";
import type { ContactDirectory, ContactMatch } from "../../types/contacts.js";
import { foldForMatching } from "../../utils/searchText.js";

/** Options of the contact directory. */
export interface ContactDirectoryOptions {
  /** Addresses users typed to Memo. */
  contacts: ContactRepository;
  /** Users' Google connections: their Google contacts are searched too (default: none). */
  google?: GoogleAccounts | null;
  logger?: Logger;
}

/** The longest address and name the contacts table keeps (migration 0017). */
const MAX_EMAIL = 320;
const MAX_NAME = 200;

/** Google contacts asked for per search (default: 10). */
const GOOGLE_PAGE_SIZE = 10;

/** The People API's answer to people:searchContacts, as far as Memo reads it. */
const SearchAnswer = z.object({
  results: z
    .array(
      z.object({
        person: z
          .object({
            names: z.array(z.object({ displayName: z.string().nullish() })).nullish(),
            emailAddresses: z.array(z.object({ value: z.string().nullish() })).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
});

/**
 * Whether a name the user said means an address they gave: the same name, a name they gave
 * beginning with it ("Dana" → "Dana Levi"), or, for an address given without a name, the words of
 * its local part ("Dana" → dana.levi@example.com). Nothing looser: an address is never guessed.
 */
function givenFor(name: string, contact: GivenContact): boolean {
  const wanted = foldForMatching(name);
  if (!wanted) return false;
  if (contact.name) {
    const kept = foldForMatching(contact.name);
    return kept === wanted || kept.startsWith(`${wanted} `);
  }
  const local = contact.email.split("@")[0] ?? "";
  const words = local.toLowerCase().split(/[._+-]+/u);
  return wanted.split(" ").every((w) => words.includes(w));
}

/** The People API's root: Google's own unless GOOGLE_API_ROOT_URL points at a stand-in. */
function peopleRoot(apiRootUrl: string): string {
  return apiRootUrl === "https://www.googleapis.com/" ? "https://people.googleapis.com/" : apiRootUrl;
}

/**
 * Names to addresses for one user (spec 002 §15.2): the addresses the user typed to Memo, then the
 * user's own Google contacts (People API `people:searchContacts`, scope `contacts.readonly`) when
 * Google is connected. Everything is looked up by the user's phone alone.
 */
export class ContactDirectoryService implements ContactDirectory {
  constructor(private readonly options: ContactDirectoryOptions) {}

  async find(phone: string, name: string): Promise<ContactMatch[]> {
    const given = (await this.options.contacts.list(phone))
      .filter((c) => givenFor(name, c))
      .map((c): ContactMatch => ({ name: c.name, email: c.email, source: "given" }));
    const google = given.length > 0 ? [] : await this.fromGoogle(phone, name);
    // One match per address (a contact with two names is still one person to invite).
    const byEmail = new Map<string, ContactMatch>();
    for (const match of [...given, ...google]) if (!byEmail.has(match.email)) byEmail.set(match.email, match);
    return [...byEmail.values()];
  }

  /**
   * Keeps an address the user typed: one longer than the table keeps (320) is not kept, a name
   * longer than 200 characters is left out. Never throws: keeping an address is a convenience, and a
   * failure (the database refusing it) is logged.
   */
  async remember(phone: string, email: string, name: string | null): Promise<void> {
    const address = email.trim().toLowerCase();
    if (address.length < 3 || address.length > MAX_EMAIL) return;
    const said = name?.trim() || null;
    try {
      await this.options.contacts.remember(phone, {
        email: address,
        name: said && said.length <= MAX_NAME ? said : null,
      });
    } catch (error) {
      this.options.logger?.warn(
        { event: "CONTACT_NOT_KEPT", err: error instanceof Error ? error.name : "error" },
        "an address the user typed could not be kept",
      );
    }
  }

  /** The user's Google contacts for a name; [] when Google is not connected or does not answer. */
  private async fromGoogle(phone: string, name: string): Promise<ContactMatch[]> {
    const google = this.options.google;
    if (!google || (await google.status(phone)) !== "connected") return [];
    try {
      const client = await google.clientFor(phone);
      if (!client) return [];
      const answer = await client.request({
        url: `${peopleRoot(google.apiRootUrl)}v1/people:searchContacts`,
        params: { query: name, readMask: "names,emailAddresses", pageSize: GOOGLE_PAGE_SIZE },
        timeout: GOOGLE_TIMEOUT_MS,
        retry: false,
      });
      const parsed = SearchAnswer.safeParse(answer.data);
      if (!parsed.success) return [];
      return (parsed.data.results ?? []).flatMap(({ person }) => {
        const displayName = person?.names?.find((n) => n.displayName)?.displayName ?? null;
        return (person?.emailAddresses ?? [])
          .map((e) => e.value?.trim().toLowerCase())
          .filter((email): email is string => !!email && z.email().safeParse(email).success)
          .map((email): ContactMatch => ({ name: displayName, email, source: "google" }));
      });
    } catch (error) {
      // No contacts permission (403), a lost connection, an outage: no Google contact is offered,
      // and Memo says it has no address instead of guessing one.
      this.options.logger?.warn(
        { event: "GOOGLE_CONTACTS_UNAVAILABLE", err: error instanceof Error ? error.name : "error" },
        "Google contacts could not be searched",
      );
      return [];
    }
  }
}
