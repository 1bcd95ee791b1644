import { type Backoff, backoffDelay } from '@licensestore/domain/backoff';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { invalidateEveryReadModel, invalidateMoved } from './live-queries';

const LIVE_URL = '/api/admin/live';
/**
 * Reconnecting after a refusal (a restart, a proxy, too many tabs): 1 s, doubling up to 30 s, with jitter so that
 * the tabs a restart cut off together do not all come back at once.
 */
const RETRY: Backoff = { firstMs: 1000, maxMs: 30_000, jitter: 'half' };

/**
 * Keeps the back office's screens current: one stream (GET /api/admin/live) for the whole tab, whose `moved`
 * events name the projectors that moved, so only the queries their read models feed are read again. Each time the
 * stream (re)connects everything shown is read again, since moves while it was down went unheard. `onSignedOut`
 * runs when the server ends the stream because the session is over.
 */
export function useLiveUpdates({ onSignedOut }: { onSignedOut: () => void }): void {
  const queryClient = useQueryClient();
  const signedOut = useRef(onSignedOut);
  signedOut.current = onSignedOut;

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    const connect = () => {
      const current = new EventSource(LIVE_URL);
      source = current;
      current.addEventListener('open', () => {
        failures = 0;
        void invalidateEveryReadModel(queryClient);
      });
      current.addEventListener('moved', (event) => {
        const { projectors } = JSON.parse((event as MessageEvent<string>).data) as { projectors: string[] };
        void invalidateMoved(queryClient, projectors);
      });
      current.addEventListener('signed-out', () => {
        current.close();
        signedOut.current();
      });
      current.addEventListener('error', () => {
        // An ended stream is reconnected by the browser itself; a refused one (not 200) is closed for good.
        if (current.readyState !== EventSource.CLOSED) return;
        retry = setTimeout(connect, backoffDelay(++failures, RETRY));
      });
    };
    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [queryClient]);
}
