import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connectedAccounts } from "./fakeGoogleCalendar.js";
import type { GoogleAccounts } from "../../src/services/google/types.js";

/**
 * A local stand-in for the one People API endpoint Memo uses, `GET /v1/people:searchContacts`, on
 * 127.0.0.1. Each bearer token has its own contacts (the test user's Google contacts); a query
 * matches a contact whose name or address has a word starting with it, as Google's search does.
 * Every request is recorded.
 *
 *   const people = await FakeGooglePeople.start();
 *   people.addContact("token-972501234567", "Dana Levi", "dana.levi@example.com");
 *   ... new ContactDirectoryService({ contacts, google: people.accounts() }) ...
 */
export class FakeGooglePeople {
  /** Every request answered: its path, query and bearer token. */
  readonly requests: { path: string; query: Record<string, string>; token: string | undefined }[] = [];
  private readonly contacts = new Map<string, { name: string; email: string }[]>();
  /** An HTTP status to answer instead (403: the user did not grant contacts), or null. */
  failWith: number | null = null;

  private constructor(
    private readonly server: Server,
    readonly rootUrl: string,
  ) {}

  static async start(): Promise<FakeGooglePeople> {
    const holder: { fake?: FakeGooglePeople } = {};
    const server = createServer((req, res) => holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    holder.fake = new FakeGooglePeople(server, `http://127.0.0.1:${port}/`);
    return holder.fake;
  }

  /** Adds a contact to the Google contacts a token opens. */
  addContact(token: string, name: string, email: string): void {
    this.contacts.set(token, [...(this.contacts.get(token) ?? []), { name, email }]);
  }

  /** Google connections for every phone, each with the token `token-<phone>` (as googleProviders). */
  accounts(): GoogleAccounts {
    return connectedAccounts(this.rootUrl);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", this.rootUrl);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    this.requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), token });
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8" }).end(JSON.stringify(body));
    if (this.failWith)
      return void answer(this.failWith, { error: { code: this.failWith, message: "refused" } });
    if (!token) return void answer(401, { error: { code: 401, message: "unauthenticated" } });
    if (req.method !== "GET" || url.pathname !== "/v1/people:searchContacts")
      return void answer(404, { error: { code: 404, message: "Not Found" } });
    const query = (url.searchParams.get("query") ?? "").toLocaleLowerCase();
    const found = (this.contacts.get(token) ?? []).filter(({ name, email }) =>
      [...name.toLocaleLowerCase().split(/\s+/u), email.toLowerCase()].some(
        (w) => query && w.startsWith(query),
      ),
    );
    answer(200, {
      results: found.map(({ name, email }) => ({
        person: { names: [{ displayName: name }], emailAddresses: [{ value: email }] },
      })),
    });
  }
}
