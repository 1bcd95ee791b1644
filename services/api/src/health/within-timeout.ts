/** Rejects once `timeoutMs` has passed without an answer: a probe or a scrape must answer, even about a hung dependency. */
export const withinTimeout = <T>(work: Promise<T>, timeoutMs: number): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_resolve, reject) => {
      setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref();
    }),
  ]);
