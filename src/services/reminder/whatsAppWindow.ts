/** Meta error code: the message went outside the 24-hour customer-service window. */
export const OUTSIDE_WINDOW_CODE = 131047;
/** WhatsApp's customer-service window, less a margin so a send does not race its end. */
const FREE_FORM_WINDOW_MS = 24 * 60 * 60 * 1000 - 5 * 60 * 1000;

/**
 * Whether a user who last wrote at `lastInboundAt` (null: never) is outside WhatsApp's 24-hour
 * window at `atMs`: only a template reaches them there.
 */
export function outsideWindow(lastInboundAt: number | null, atMs: number): boolean {
  return lastInboundAt === null || atMs - lastInboundAt >= FREE_FORM_WINDOW_MS;
}
