/** One benchmark question with its gold SQL (every variant is an acceptable answer). */
export interface EvalQuestion {
  id: string;
  /** The benchmark's database the question is about. */
  db: string;
  category: string;
  question: string;
  /** Domain rules that come with the question (defog's instruct sets, BIRD's evidence); '' when none. */
  instructions: string;
  gold: string[];
}

/** A benchmark made ready: its questions and, per database, how to connect the app to it. */
export interface PreparedBenchmark {
  name: 'defog' | 'bird';
  /** Lexing rules for reading the gold SQL (see ordersAtTopLevel). */
  family: 'mysql' | 'sqlite';
  questions: EvalQuestion[];
  /** Every question of the databases in use (the asked ones and the rest): where example queries come from. */
  pool: EvalQuestion[];
  /** POST /api/connections bodies, by database. */
  connections: Record<string, Record<string, unknown>>;
  /** Environment for the app (e.g. SQLITE_ROOT for SQLite databases). */
  appEnv: Record<string, string>;
  /** Drops what was created for the run. */
  close(): Promise<void>;
}

/**
 * At most `limit` questions, taken in turn from each database (the 1st of each, then the 2nd, …), so a small run
 * still covers every database. Deterministic: the same limit gives the same questions.
 */
export function spreadAcrossDatabases(questions: EvalQuestion[], limit: number | undefined): EvalQuestion[] {
  if (limit === undefined || limit >= questions.length) return questions;
  const byDb = new Map<string, EvalQuestion[]>();
  for (const q of questions) byDb.set(q.db, [...(byDb.get(q.db) ?? []), q]);
  const picked: EvalQuestion[] = [];
  for (let round = 0; picked.length < limit; round++) {
    for (const list of byDb.values()) {
      if (round < list.length && picked.length < limit) picked.push(list[round]!);
    }
  }
  return picked;
}

/** A question as the user sends it: the question, then its domain rules. */
export function messageFor(question: EvalQuestion): string {
  return question.instructions.trim() ? `${question.question}\n\n${question.instructions.trim()}` : question.question;
}

/**
 * Two folds per database (every other question in the benchmark's order), so examples never contain the question
 * being asked: a question of fold 0 is asked on a connection whose examples are fold 1's gold, and the reverse.
 */
export function foldsOf(pool: EvalQuestion[]): Map<string, 0 | 1> {
  const seen = new Map<string, number>();
  const folds = new Map<string, 0 | 1>();
  for (const q of pool) {
    const n = seen.get(q.db) ?? 0;
    seen.set(q.db, n + 1);
    folds.set(q.id, (n % 2) as 0 | 1);
  }
  return folds;
}
