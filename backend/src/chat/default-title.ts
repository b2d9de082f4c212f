/** The title of a thread until its first message names it. */
export const DEFAULT_TITLE = 'New conversation';
