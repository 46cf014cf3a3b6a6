// bufferedFetch: Node's fetch for small JSON exchanges, over node:http; answers as fetch would.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferedFetch } from "../../src/utils/bufferedFetch.js";

let server: http.Server;
let base = "";
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === "/echo") {
        res.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
        res.end(JSON.stringify({ got: body, type: req.headers["content-type"] ?? null }));
      } else if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(zlib.gzipSync(JSON.stringify({ zipped: "שלום" })));
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else if (req.url === "/moved") {
        res.writeHead(307, { location: "/echo" });
        res.end();
      } else if (req.url === "/slow") {
        setTimeout(() => res.end("late"), 2_000).unref();
      } else if (req.url === "/cut") {
        res.writeHead(200, { "content-length": "100" });
        res.write("partial");
        setTimeout(() => res.destroy(), 20);
      } else {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end("server error");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("bufferedFetch", () => {
  it("sends method, headers and body, and returns status, headers and body as fetch does", async () => {
    const response = await bufferedFetch(`${base}/echo`, {
      method: "POST",
      headers: new Headers({ "content-type": "application/json", authorization: "Bearer t" }),
      body: JSON.stringify({ text: "הי" }),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(await response.json()).toEqual({ got: '{"text":"הי"}', type: "application/json" });
    expect(seen.at(-1)).toMatchObject({ method: "POST", headers: { authorization: "Bearer t" } });
  });

  it("answers an error status, an empty answer and a compressed one as fetch does", async () => {
    const failed = await bufferedFetch(`${base}/nope`);
    expect([failed.status, failed.ok, await failed.text()]).toEqual([500, false, "server error"]);
    const empty = await bufferedFetch(`${base}/empty`, { method: "DELETE" });
    expect([empty.status, empty.body]).toEqual([204, null]);
    const zipped = await bufferedFetch(`${base}/gzip`);
    expect(await zipped.json()).toEqual({ zipped: "שלום" });
    expect(zipped.headers.get("content-encoding")).toBeNull();
  });

  it("answers a redirect as it came, without sending the request again", async () => {
    const before = seen.length;
    const response = await bufferedFetch(`${base}/moved`, { method: "POST", body: "once" });
    expect([response.status, response.headers.get("location")]).toEqual([307, "/echo"]);
    expect(seen.slice(before).map((r) => r.url)).toEqual(["/moved"]);
  });

  it("rejects with the signal's reason when it aborts, before or during the request", async () => {
    const timeout = bufferedFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) });
    await expect(timeout).rejects.toMatchObject({ name: "TimeoutError" });
    const controller = new AbortController();
    controller.abort();
    await expect(bufferedFetch(`${base}/echo`, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("rejects with a TypeError when the server cannot be reached or cuts the answer off", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(bufferedFetch(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(TypeError);
    await expect(bufferedFetch(`${base}/cut`)).rejects.toBeInstanceOf(TypeError);
  });

  it("leaves what it does not handle the same way to the global fetch: a form body, a Request", async () => {
    const form = new FormData();
    form.set("file", new Blob(["abc"]), "a.txt");
    const response = await bufferedFetch(`${base}/echo`, { method: "POST", body: form });
    expect(((await response.json()) as { type: string }).type).toMatch(/^multipart\/form-data/);
    const viaRequest = await bufferedFetch(new Request(`${base}/echo`, { method: "POST", body: "r" }));
    expect(await viaRequest.json()).toMatchObject({ got: "r" });
  });
});
