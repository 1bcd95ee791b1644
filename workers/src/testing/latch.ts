/** A point a test waits for until something calls `open` (Promise.withResolvers, which Node 20 does not have). */
export function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
