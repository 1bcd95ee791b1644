import { createStore } from './store';

/** One toast visible at a time, shown for 5000 ms; a dismissed one is forgotten much later. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  open: boolean;
}

const toasts = createStore<ToastMessage[]>([]);
let nextId = 1;

/** Closes a toast; it stays in the list (closed, animating out) until the removal delay has passed. */
export function dismissToast(id: number) {
  toasts.set(toasts.get().map((item) => (item.id === id ? { ...item, open: false } : item)));
  setTimeout(() => toasts.set(toasts.get().filter((item) => item.id !== id)), TOAST_REMOVE_DELAY_MS);
}

/** Shows a toast; a newer one replaces the one on screen. */
export function toast(message: Omit<ToastMessage, 'id' | 'open'>): number {
  const id = nextId++;
  toasts.set([{ ...message, id, open: true }, ...toasts.get()].slice(0, TOAST_LIMIT));
  return id;
}

export const useToasts = toasts.use;
