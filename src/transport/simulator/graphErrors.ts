import { randomBytes } from "node:crypto";
import type { Response } from "express";

/** A Graph API error as the stand-in answers it: Meta's message, code, subcode and details. */
export interface GraphError {
  message: string;
  code?: number;
  subcode?: number;
  details?: string;
}

/** Answers with a Graph API error body (`{error: {message, type, code, fbtrace_id, …}}`). */
export function sendGraphError(res: Response, status: number, error: GraphError): void {
  const code = error.code ?? 100;
  res.status(status).json({
    error: {
      message: error.message,
      type: "OAuthException",
      code,
      ...(error.details ? { error_data: { messaging_product: "whatsapp", details: error.details } } : {}),
      ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
      fbtrace_id: `A${randomBytes(11).toString("base64url")}`,
    },
  });
}

/** Meta's answer for an id that names nothing the caller may use. */
export function unknownObject(res: Response, id: string, method: "get" | "post" | "delete"): void {
  sendGraphError(res, 400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    code: 100,
    subcode: 33,
  });
}
