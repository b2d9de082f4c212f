import type { Request } from 'express';

/** An AbortSignal that fires when the client goes away before the response is complete. */
export function abortSignalFor(request: Request): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!request.res?.writableFinished) controller.abort(new Error('client disconnected'));
  };
  request.res?.once('close', onClose);
  return controller.signal;
}
