// The OpenAI embedder through @langchain/openai, against a local OpenAI-compatible /embeddings
// endpoint (no network): the request it sends, the vectors it returns, and what it rejects.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EMBEDDING_DIMENSIONS,
  EmbeddingShapeError,
  createOpenAIEmbedder,
} from "../../src/services/secondBrain/embeddings.js";

interface EmbeddingRequest {
  model: string;
  input: string[] | string;
  dimensions?: number;
  encoding_format?: string;
}

/** A vector whose first number says which text of the request it is for. */
const vectorFor = (index: number, length = EMBEDDING_DIMENSIONS) =>
  Array.from({ length }, (_, i) => (i === 0 ? index + 1 : 0.5));

describe("createOpenAIEmbedder", () => {
  let server: Server;
  let baseUrl: string;
  const requests: { path: string; auth: string | undefined; body: EmbeddingRequest }[] = [];
  /** Dimensions the server answers with (default: EMBEDDING_DIMENSIONS). */
  let answerLength = EMBEDDING_DIMENSIONS;
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      req.on("end", () => {
        const body = JSON.parse(raw) as EmbeddingRequest;
        requests.push({ path: req.url ?? "", auth: req.headers.authorization, body });
        res.setHeader("content-type", "application/json");
        if (status !== 200) {
          res.statusCode = status;
          res.end(JSON.stringify({ error: { message: "Invalid request", type: "invalid_request_error" } }));
          return;
        }
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        // As OpenAI does: base64 little-endian float32 when asked, numbers otherwise.
        const encode = (vector: number[]) =>
          body.encoding_format === "base64"
            ? Buffer.from(new Float32Array(vector).buffer).toString("base64")
            : vector;
        res.end(
          JSON.stringify({
            object: "list",
            model: body.model,
            data: inputs.map((_, index) => ({
              object: "embedding",
              index,
              embedding: encode(vectorFor(index, answerLength)),
            })),
            usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks the configured model for 1536 dimensions and returns one vector per text, in order", async () => {
    const embedder = createOpenAIEmbedder(
      { model: "text-embedding-3-small", apiKey: "sk-test", baseUrl },
      { maxRetries: 0 },
    );
    expect(embedder.model).toBe("text-embedding-3-small");
    const vectors = await embedder.embed(["first note", "second\nnote"]);
    expect(vectors.map((v) => [v.length, v[0]])).toEqual([
      [EMBEDDING_DIMENSIONS, 1],
      [EMBEDDING_DIMENSIONS, 2],
    ]);
    const sent = requests.at(-1)!;
    expect(sent.path).toBe("/v1/embeddings");
    expect(sent.auth).toBe("Bearer sk-test");
    expect(sent.body).toMatchObject({
      model: "text-embedding-3-small",
      dimensions: 1536,
      input: ["first note", "second\nnote"],
    });
    expect(await embedder.embed([])).toEqual([]);
  });

  it("does not send dimensions to other models, and rejects vectors of another size", async () => {
    const embedder = createOpenAIEmbedder(
      { model: "local-embedder", apiKey: "sk-test", baseUrl },
      { maxRetries: 0 },
    );
    answerLength = 768;
    try {
      await expect(embedder.embed(["a note"])).rejects.toBeInstanceOf(EmbeddingShapeError);
    } finally {
      answerLength = EMBEDDING_DIMENSIONS;
    }
    expect(requests.at(-1)!.body.dimensions).toBeUndefined();
  });

  it("fails with the server's error, without retrying more than asked", async () => {
    const embedder = createOpenAIEmbedder(
      { model: "text-embedding-3-small", apiKey: "sk-test", baseUrl },
      { maxRetries: 0 },
    );
    status = 400;
    const before = requests.length;
    try {
      await expect(embedder.embed(["a note"])).rejects.toThrow(/Invalid request/);
    } finally {
      status = 200;
    }
    expect(requests.length - before).toBe(1);
  });
});
