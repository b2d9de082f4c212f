import { isAppError } from '../common/app-error.js';
import type { ConnectionsRepository } from '../storage/repositories/connections.repository.js';
import { SecretBox } from './secret-box.js';

export interface RotationReport {
  resealed: number;
  alreadyCurrent: number;
  /** Connections whose secret no configured key opens; their owners must enter the password again. */
  unreadable: string[];
}

/**
 * Re-seals every connection secret under the box's current key. Idempotent: secrets already under
 * the current key are skipped, so an interrupted run is finished by running it again.
 */
export async function rotateSecrets(connections: ConnectionsRepository, box: SecretBox): Promise<RotationReport> {
  const report: RotationReport = { resealed: 0, alreadyCurrent: 0, unreadable: [] };
  for (const row of await connections.listSealed()) {
    const sealed = row.sealed_password!;
    if (SecretBox.keyIdOf(sealed) === box.currentKeyId) {
      report.alreadyCurrent++;
      continue;
    }
    const context = { connectionId: row.id, ownerId: row.user_id };
    try {
      await connections.updateSealed(row.id, box.seal(box.open(sealed, context), context));
      report.resealed++;
    } catch (error) {
      if (!isAppError(error)) throw error;
      report.unreadable.push(row.id);
    }
  }
  return report;
}
