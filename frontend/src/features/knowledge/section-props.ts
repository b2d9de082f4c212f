import type { ConnectionKnowledge } from '@aigis/contracts';

/** What every section of the Knowledge page gets: the connection's knowledge, and a way to update it after a write. */
export interface SectionProps {
  connectionId: string;
  knowledge: ConnectionKnowledge;
  update(change: (k: ConnectionKnowledge) => ConnectionKnowledge): void;
}
