// No imports: the SQLite process (sqlite/sqlite-child.ts) loads this file as it is, also from the TypeScript source.

/** What replaces the rest of a cut value: its full size, so nobody mistakes a cut value for the whole. */
export function cutMarker(totalBytes: number): string {
  return `…[cut: ${totalBytes.toLocaleString('en-US')} bytes]`;
}

/** UTF-8 bytes of a string, without encoding it when its length already decides. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The text itself when it fits in `maxBytes` (UTF-8), else its longest prefix that fits together with the marker,
 * cut on a character boundary. Only a prefix of at most `maxBytes` characters is ever copied.
 */
export function cutText(text: string, maxBytes: number, totalBytes?: number): string {
  if (text.length * 3 <= maxBytes) return text;
  if (text.length <= maxBytes && utf8Bytes(text) <= maxBytes) return text;
  const total = totalBytes ?? utf8Bytes(text);
  if (total <= maxBytes) return text;
  const marker = cutMarker(total);
  const room = Math.max(0, maxBytes - utf8Bytes(marker));
  let prefix = text.slice(0, room);
  // A prefix ending inside a surrogate pair would encode a replacement character.
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  const bytes = Buffer.from(prefix, 'utf8');
  if (bytes.length > room) {
    let end = room;
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
    prefix = bytes.subarray(0, end).toString('utf8');
  }
  return prefix + marker;
}
