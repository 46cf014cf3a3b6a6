/** What the gmail executor hands its reply templates. */

/** An email as results carry it to the templates (a listing: no body). */
export interface EmailView {
  id: string;
  from: string;
  fromAddress: string;
  to?: string[];
  cc?: string[];
  subject: string;
  date: string | null;
  body?: string;
  unread?: boolean;
}

/** What a gmail operation returns as data (the templates' input); `E`: how an email is shown. */
export type GmailData<E = EmailView> =
  | { kind: "emails"; emails: E[] }
  | { kind: "email"; email: E; thread?: { count: number; summary: string } }
  | { kind: "sent"; op: "send" | "reply" | "forward"; to: string[]; subject: string }
  | { kind: "drafted"; to: string[]; subject: string }
  | {
      kind: "changed";
      op: "archive" | "delete" | "markRead" | "label";
      emails: { from: string; subject: string }[];
      added?: string[];
      removed?: string[];
    };
