/** The delivery states Memo records for a sent WhatsApp message, in the order they progress. */
export type DeliveryStatus = "sent" | "delivered" | "read" | "failed";
