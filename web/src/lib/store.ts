import { useSyncExternalStore } from 'react';

export interface Store<T> {
  get: () => T;
  set: (next: T) => void;
  subscribe: (listener: () => void) => () => void;
  /** The current value in a component, re-rendered on every change. */
  use: () => T;
}

/**
 * A value shared by components outside React's tree (the cart, toasts, the cart panel), read with useSyncExternalStore.
 * `onServer` is what a page rendered on the server shows, and so what the browser's first render (the hydration)
 * must show too; the browser's own value follows right after. Default: the initial value.
 */
export function createStore<T>(initial: T, onServer: T = initial): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const get = () => value;
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    get,
    set: (next) => {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe,
    use: () => useSyncExternalStore(subscribe, get, () => onServer),
  };
}
