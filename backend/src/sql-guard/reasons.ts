/**
 * Every reason the guard gives, in one place: the user reads these (they travel as SQL_REJECTED and are
 * fed back to the model), so each names the statement, clause, function or table that was refused.
 */
export const READ_ONLY_RULE = 'only read-only queries (SELECT, WITH … SELECT, VALUES) can run';

export const reasons = {
  empty: () => 'no SQL statement found',
  nulCharacter: () => 'the SQL contains a NUL character',
  tooLong: (length: number, max: number) => `the SQL is too long (${length} characters; at most ${max})`,
  parseError: (message: string) => `could not parse the SQL: ${message}`,
  notAQuery: (label: string) => `${label} is not allowed: ${READ_ONLY_RULE}`,
  multipleStatements: (count: number, offender?: { index: number; label: string }) =>
    `only one statement is allowed (found ${count})` +
    (offender ? `; statement ${offender.index} of ${count} is ${offender.label}` : ''),
  dataModifyingCte: (label: string) => `data-modifying WITH (${label} inside a CTE) is not allowed`,
  selectInto: (detail?: string) => `SELECT INTO is not allowed${detail ? ` (${detail})` : ''}: it writes instead of returning rows`,
  lockingClause: (clause: string) => `locking clause ${clause} is not allowed: a read-only query takes no row locks`,
  explainAnalyze: () => `EXPLAIN ANALYZE is not allowed: it executes the statement; ${READ_ONLY_RULE}`,
  deniedFunction: (name: string, why: string) => `function ${name} is not allowed (${why})`,
  expressionField: (name: string) =>
    `SQL rejected: (…).${name} is not allowed: on a value that is not a row PostgreSQL would call a function ${name}(…), which is not on the list of functions safe for analytics; select the field another way, or ask the connection's owner to allow ${name} by name`,
  notAllowedFunction: (name: string) =>
    `function ${name} is not allowed (not a built-in function known to be safe for read-only queries; ` +
    'the connection’s owner can allow a function of their own by name)',
  deniedRelation: (name: string, why: string) => `access to ${name} (${why}) is not allowed`,
  executableComment: (marker: '/*!' | '/*M!') =>
    marker === '/*!'
      ? 'MySQL executable comments (/*! … */) are not allowed: the server runs their content'
      : 'MariaDB executable comments (/*M! … */) are not allowed: the server runs their content',
  optimizerHint: () => 'MySQL optimizer hints (/*+ … */) are not allowed: they can override the statement timeout',
  ambiguousQuoting: () =>
    'a backslash before a quote inside a quoted string is read differently depending on the server\'s sql_mode ' +
    "(NO_BACKSLASH_ESCAPES, ANSI_QUOTES); write the quote doubled ('') instead",
  variableAssignment: () => 'assigning user variables (@name := …) is not allowed: it changes the session',
};
