/**
 * Whether `data` is an Ogg stream whose first logical stream is Opus, what WhatsApp plays as a voice
 * note: the page starts with the capture pattern "OggS", version 0, the beginning-of-stream flag, and
 * its first packet (after the 27-byte header and the segment table) is the Opus identification
 * header "OpusHead" (RFC 7845).
 */
export function isOggOpus(data: Uint8Array): boolean {
  const latin1 = (from: number, to: number) => Buffer.from(data.subarray(from, to)).toString("latin1");
  if (data.length < 47 || latin1(0, 4) !== "OggS" || data[4] !== 0) return false;
  if ((data[5]! & 0x02) === 0) return false;
  const packet = 27 + data[26]!;
  return data.length >= packet + 19 && latin1(packet, packet + 8) === "OpusHead";
}
