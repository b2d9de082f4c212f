import { ChartView } from '../charts/ChartView';
import { ResultsTable } from '../results/ResultsTable';
import { SqlBlock } from '../results/SqlBlock';
import { ErrorBox } from '../../ui/ErrorBox';
import type { ToolResultContent } from '@aigis/contracts';
import { createContext, useContext } from 'react';
import { SaveAsExample } from '../knowledge/SaveAsExample';
import { EditAndRun } from './EditAndRun';
import { activityLabel, type ToolCallView as Call } from './message-view';

/** A tool call: live activity while it runs, then its result (SQL + table, chart, text or error). */
export function ToolCallView({
  call,
  running,
  awaitingReview = false,
  question = null,
}: {
  call: Call;
  running: boolean;
  awaitingReview?: boolean;
  /** The question of the turn (for "Save as example"). */
  question?: string | null;
}) {
  if (!call.result && awaitingReview) {
    return (
      <div className="tool-activity muted" data-testid="tool-awaiting-review">
        Waiting for your review before the query runs.
      </div>
    );
  }
  if (!call.result) {
    if (running) {
      return (
        <div className="tool-activity" role="status" data-testid="tool-activity" data-tool={call.name}>
          <span className="spinner" aria-hidden />
          {activityLabel(call.name, call.args)}
          {typeof call.args.question === 'string' && <span className="muted tool-arg">{call.args.question}</span>}
        </div>
      );
    }
    return (
      <div className="tool-activity tool-cancelled muted" data-testid="tool-cancelled">
        {activityLabel(call.name, call.args).replace('…', '')}: did not finish.
      </div>
    );
  }
  return <ToolResultView name={call.name} result={call.result} callId={call.id} question={question} />;
}

/** Runs an edited SQL of an earlier answer as a `SQL:` message (absent where nothing can run, e.g. tests). */
export const SqlRerunContext = createContext<{ run(sql: string): void; disabled: boolean } | null>(null);

export function ToolResultView({
  name,
  result,
  callId,
  question = null,
}: {
  name: string;
  result: ToolResultContent;
  /** The tool call this is the result of (what "Save as example" names). */
  callId?: string;
  question?: string | null;
}) {
  const rerun = useContext(SqlRerunContext);
  switch (result.type) {
    case 'sql_result':
      return (
        <div className="tool-result" data-tool={name}>
          <SqlBlock sql={result.sql} />
          <div className="sql-actions">
            {rerun && <EditAndRun sql={result.sql} disabled={rerun.disabled} onRun={rerun.run} />}
            {callId && <SaveAsExample callId={callId} hasQuestion={question !== null} />}
          </div>
          <ResultsTable
            columns={result.columns}
            rows={result.rows}
            rowCount={result.row_count}
            truncated={result.truncated}
            elapsedMs={result.elapsed_ms}
            exportName="query-result"
          />
        </div>
      );
    case 'vega_lite_spec':
      return (
        <div className="tool-result" data-tool={name}>
          <ChartView spec={result.spec} fallback={result.fallback} />
        </div>
      );
    case 'error':
      return (
        <div className="tool-result" data-tool={name}>
          <ErrorBox code={result.code} message={result.message} />
          {result.sql && <SqlBlock sql={result.sql} label={result.code === 'QUERY_DENIED' ? 'SQL not run' : 'SQL that failed'} />}
          {result.sql && rerun && <EditAndRun sql={result.sql} disabled={rerun.disabled} onRun={rerun.run} />}
        </div>
      );
    case 'text':
      return (
        <details className="tool-text" data-tool={name}>
          <summary>{name === 'describe_table' ? 'Read a table description' : `Output of ${name}`}</summary>
          <pre>{result.text}</pre>
        </details>
      );
  }
}
