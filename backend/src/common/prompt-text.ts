/** The tags that delimit blocks of data in our prompts (the owner's notes, the retrieved example queries). */
const BLOCK_TAG = /<\s*\/?\s*(connection_notes|example_queries)\b[^>]*>?/gi;

/**
 * Escapes `<` and `>` of any tag-like text naming one of our block tags (`</connection_notes>`, `< / example_queries >`,
 * any case), so text written by the owner, an imported file or the database cannot end its block and speak as the system.
 */
export function escapeTags(text: string): string {
  return text.replace(BLOCK_TAG, (m) => m.replace(/</g, '‹').replace(/>/g, '›'));
}
