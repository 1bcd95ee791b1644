import type { Product } from '@licensestore/domain';
import { createRef } from 'react';
import { createStore } from '@/lib/store';
import {
  addLine,
  CART_STORAGE_KEY,
  type CartLine,
  parseCart,
  removeLine,
  setLineQuantity,
} from '../utils/cart-store';

function readStorage(): string | null {
  try {
    return localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return null;
  }
}

const inBrowser = typeof window !== 'undefined';

// A page rendered on the server knows no cart: it shows an empty one, which the browser's fills after hydration.
const lines = createStore<CartLine[]>(inBrowser ? parseCart(readStorage()) : [], []);

function save(next: CartLine[]) {
  try {
    localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage can be unavailable (private mode, quota): the cart then lasts for this page only.
  }
  lines.set(next);
}

// The same cart in another tab follows here.
if (inBrowser) {
  window.addEventListener('storage', (event) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) lines.set(parseCart(readStorage()));
  });
}

export const cart = {
  add: (product: Product) => save(addLine(lines.get(), product)),
  setQuantity: (productId: string, quantity: number) =>
    save(setLineQuantity(lines.get(), productId, quantity)),
  remove: (productId: string) => save(removeLine(lines.get(), productId)),
  clear: () => save([]),
};

/** The cart's lines, kept in local storage under `cart`, shared by every component and tab. */
export const useCartLines = lines.use;

const panel = createStore(false);
/** Whether the cart side panel is open; the header's cart button opens it. */
export const useCartPanelOpen = panel.use;
export const setCartPanelOpen = panel.set;
/** The header's cart button, which opens the panel from outside it: where focus goes back when the panel closes. */
export const cartButtonRef = createRef<HTMLButtonElement>();
