import type { ProviderSetup } from '@aigis/contracts';
import './models.css';

/** Shown when no model is available: which variable enables which provider, and that SQL still works. */
export function NoModelNotice({ providers }: { providers: ProviderSetup[] }) {
  return (
    <section className="notice notice-info" data-testid="no-model-notice" aria-labelledby="no-model-title">
      <h2 id="no-model-title">No language model is configured</h2>
      <p>
        Set one of these environment variables for the server and restart it. Until then, you can still run SQL
        directly: start a message with <code>SQL:</code>, for example <code>SQL: SELECT * FROM customers LIMIT 10</code>.
      </p>
      {providers.length > 0 && (
        <table className="provider-table">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Environment</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => (
              <tr key={p.provider}>
                <td>
                  {p.provider}
                  {p.configured && <span className="badge badge-ok">configured</span>}
                </td>
                <td>
                  {p.env.map((v) => (
                    <code key={v} className="env-var">
                      {v}
                    </code>
                  ))}
                </td>
                <td className="muted">{p.hint}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
