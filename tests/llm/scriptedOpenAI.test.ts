import { ChatOpenAI } from "@langchain/openai";
import { ScriptedOpenAI, type RecordedRequest } from "../support/scriptedOpenAI.js";

/** A raw chat completions request, as any OpenAI client would send it. */
async function complete(server: ScriptedOpenAI, model: string) {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const contentOf = (body: Record<string, unknown>) =>
  (body.choices as { message: { content: string } }[])[0]?.message.content;

describe("ScriptedOpenAI", () => {
  let server: ScriptedOpenAI;
  beforeEach(async () => {
    server = await ScriptedOpenAI.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it("listens on 127.0.0.1 and answers the queue in order, then 500 'no scripted reply'", async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    server.enqueue({ text: "one" }, { text: "two" });

    expect(contentOf((await complete(server, "m")).body)).toBe("one");
    expect(contentOf((await complete(server, "m")).body)).toBe("two");
    const third = await complete(server, "m");

    expect(third.status).toBe(500);
    expect(third.body).toMatchObject({ error: { message: "no scripted reply" } });
    expect(server.requests).toHaveLength(3);
    expect(server.unmatched).toEqual([server.requests[2]]);
  });

  it("tries matchers first, in order, each as many times as allowed", async () => {
    server.enqueue({ text: "queued" });
    server.on((req) => req.body.model === "a", { text: "first a" }, { times: 1 });
    server.on(
      (req) => req.body.model === "a",
      (req: RecordedRequest) => ({ text: `again ${req.body.model}` }),
    );

    const answers = [];
    for (const model of ["a", "a", "b", "a"]) answers.push(contentOf((await complete(server, model)).body));

    expect(answers).toEqual(["first a", "again a", "queued", "again a"]);
  });

  it("answers /chat/completions without the /v1 prefix, and 404 elsewhere", async () => {
    server.enqueue({ text: "ok" });
    const root = server.baseUrl.replace(/\/v1$/, "");

    const bare = await fetch(`${root}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
    });
    expect(bare.status).toBe(200);
    const elsewhere = await fetch(`${root}/v1/responses`, { method: "POST", body: "{}" });
    expect(elsewhere.status).toBe(404);
  });

  it("sends OpenAI-style errors and reports usage", async () => {
    server.enqueue({ status: 429 }, { text: "abcdefgh", usage: { prompt_tokens: 7, completion_tokens: 3 } });

    const limited = await complete(server, "gpt-4o");
    const ok = await complete(server, "gpt-4o");

    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: "rate_limit_exceeded", type: "requests" } });
    expect(ok.body).toMatchObject({
      model: "gpt-4o",
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
  });

  it("streams when the client asks to", async () => {
    server.enqueue({ text: "streamed answer", usage: { prompt_tokens: 5, completion_tokens: 2 } });
    // stream(), not invoke() with `streaming: true`: the latter makes ChatOpenAI count tokens with
    // tiktoken, which downloads its encodings from the network.
    const chat = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "test",
      configuration: { baseURL: server.baseUrl },
      maxRetries: 0,
    });

    let text = "";
    let outputTokens = 0;
    for await (const chunk of await chat.stream("hi")) {
      text += chunk.text;
      outputTokens += chunk.usage_metadata?.output_tokens ?? 0;
    }

    expect(text).toBe("streamed answer");
    expect(outputTokens).toBe(2);
    expect(server.requests[0]?.body.stream).toBe(true);
  });

  it("closes promptly while a reply hangs or waits", async () => {
    server.enqueue({ hang: true }, { text: "late", delayMs: 60_000 });
    const hanging = fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
    }).catch((error: unknown) => error);
    const waiting = fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
    }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));

    const started = Date.now();
    await server.close();

    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await hanging).toBeInstanceOf(Error);
    expect(await waiting).toBeInstanceOf(Error);
  });
});
