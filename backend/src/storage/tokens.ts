/** Injection token for the Kysely app database. */
export const APP_DB = Symbol('APP_DB');
