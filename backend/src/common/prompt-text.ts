/** Characters a model may read as the `<` or `>` of a tag: ASCII, fullwidth and small forms. */
const OPENER = /[<\uff1c\ufe64]/g;
const CLOSER = /[>\uff1e\ufe65]/;
/** How far after a `<` the tag's name is looked for (spaces, slashes and invisible characters included). */
const WINDOW = 80;
/**
 * What a reader skips between `<` and the name, or inside the name: spaces, any slash (`/`, `\/`, `∕`, `⁄`, `⧸`)
 * and characters that show nothing (soft hyphen, zero-width, bidi controls: Default_Ignorable_Code_Point).
 */
const SKIPPED = /[\s/\\\u2215\u2044\u29f8]|\p{Default_Ignorable_Code_Point}/gu;
/** Our block tags' names, the separator written any way (`connection_notes`, `connection-notes`, `CONNECTION NOTES`). */
const BLOCK_NAME = /^(connection[_-]?notes|example[_-]?queries)/;

/**
 * Escapes the `<` (and the `>` that closes it) of any tag-like text naming one of our block tags, in every spelling
 * a model could read as one: `</connection_notes>`, `< / EXAMPLE_QUERIES >`, `<\/connection_notes>`, fullwidth
 * `＜/connection_notes＞`, or the name broken by a soft hyphen or a zero-width space. So text written by the owner, an
 * imported file or the database cannot end its block and speak as the system. Other `<` (SQL's `a < b`) stay.
 */
export function escapeTags(text: string): string {
  const escaped = new Map<number, string>();
  for (const match of text.matchAll(OPENER)) {
    const at = match.index;
    const window = text.slice(at + 1, at + 1 + WINDOW);
    const name = window.normalize('NFKC').replace(SKIPPED, '').toLowerCase();
    if (!BLOCK_NAME.test(name)) continue;
    escaped.set(at, '‹');
    const close = CLOSER.exec(window);
    if (close) escaped.set(at + 1 + close.index, '›');
  }
  if (escaped.size === 0) return text;
  // By UTF-16 index, like the matches (every replaced character is one unit; surrogate pairs pass through whole).
  return text
    .split('')
    .map((ch, i) => escaped.get(i) ?? ch)
    .join('');
}
