/**
 * The people a user may invite (spec 003 ContactRef): e-mail addresses the user typed to Memo, and,
 * with Google connected, the user's own Google contacts. Only ever the user's own: an address
 * another user gave (a household member included) is never offered.
 */

/** An address found for a name. */
export interface ContactMatch {
  /** The name it is kept under; null for an address the user gave without one. */
  name: string | null;
  /** Lower case. */
  email: string;
  /** "given": the user typed it to Memo earlier; "google": one of the user's Google contacts. */
  source: "given" | "google";
}

/** Where names become addresses, for one user at a time. */
export interface ContactDirectory {
  /** The addresses the user's own contacts hold for a name, the ones the user gave first; [] when none. */
  find(phone: string, name: string): Promise<ContactMatch[]>;
  /** Keeps an address the user typed, with the name it was given for (null: none said); never throws. */
  remember(phone: string, email: string, name: string | null): Promise<void>;
}
