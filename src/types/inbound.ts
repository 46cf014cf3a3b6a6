/** An inbound message as the routes that answer it without the graph read it. */
export interface InboundCommand {
  text: string;
  /** The message it replies to (quotes), when it does. */
  replyTo?: string | undefined;
  /** The id of a tapped reply button or list row. */
  optionId?: string | undefined;
  messageId: string;
}
