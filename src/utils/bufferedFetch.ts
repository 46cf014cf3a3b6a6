import http from "node:http";
import https from "node:https";
import { promisify } from "node:util";
import zlib from "node:zlib";

const DECODERS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The headers of a fetch call as a plain object. */
function plainHeaders(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers || Array.isArray(headers)) {
    new Headers(headers).forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers)) {
    // Typed as strings; String() also joins a list the way a header line carries it.
    if (value !== undefined) out[name] = String(value);
  }
  return out;
}

/** What fetch rejects with when its signal aborts: the signal's reason (a TimeoutError for AbortSignal.timeout). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * `fetch` for small request/response exchanges (JSON APIs: OpenAI's chat completions, the Graph
 * API's messages) over node:http(s) and its keep-alive agent, the whole response read into memory
 * before it is returned. Node's fetch builds web streams, abort listeners and a cloned request
 * for every call: about twice the CPU per request on Node 20 (a tenth of a turn's CPU, issue 22),
 * still a third more on Node 24 (`npm run bench -- http_client`). What it does not handle the same way is left to the global fetch: a Request object,
 * a body other than text or bytes (a form, a stream), a `redirect` setting other than "follow". A
 * redirect is answered as it came (these APIs do not redirect; following it would send the
 * request twice). Like fetch it rejects with the
 * signal's reason when aborted, with a TypeError when the server cannot be reached or the
 * connection breaks, and undoes gzip, deflate and brotli encodings. Not for downloads of unknown
 * size: the whole body is buffered.
 */
export const bufferedFetch: typeof fetch = async (input, init = {}) => {
  const { body, signal } = init;
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : null;
  const simpleBody =
    body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (url === null || !simpleBody || (init.redirect && init.redirect !== "follow")) {
    return globalThis.fetch(input, init);
  }
  if (signal?.aborted) throw abortReason(signal);
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : target.protocol === "http:" ? http : null;
  if (!client) return globalThis.fetch(input, init);

  const response = await new Promise<{ status: number; statusText: string; headers: Headers; data: Buffer }>(
    (resolve, reject) => {
      const fail = (error: unknown) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- as fetch: the signal's reason, whatever it is
        if (signal?.aborted) reject(abortReason(signal));
        else reject(new TypeError("fetch failed", { cause: error }));
      };
      const request = client.request(
        target,
        { method: init.method ?? "GET", headers: plainHeaders(init.headers), ...(signal ? { signal } : {}) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", fail);
          res.on("aborted", () => fail(new Error("the response was cut off")));
          res.on("end", () => {
            const headers = new Headers();
            const raw = res.rawHeaders;
            try {
              for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
            } catch (error) {
              fail(error);
              return;
            }
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? "",
              headers,
              data: Buffer.concat(chunks),
            });
          });
        },
      );
      request.on("error", fail);
      request.end(body ?? undefined);
    },
  );

  let data = response.data;
  const encoding = response.headers.get("content-encoding")?.trim().toLowerCase();
  const decode = encoding ? DECODERS[encoding] : undefined;
  if (decode && data.length > 0) {
    try {
      data = await decode(data);
    } catch (error) {
      throw new TypeError("fetch failed", { cause: error });
    }
    response.headers.delete("content-encoding");
    response.headers.delete("content-length");
  }
  return new Response(NULL_BODY.has(response.status) ? null : data, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};
