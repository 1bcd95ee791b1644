import { createContext } from 'react';

/** What a page puts in the document's head: the title as shown (site name included), description, robots rule. */
export interface PageHead {
  title: string;
  description: string;
  noindex: boolean;
}

/**
 * Given only when rendering on the server, where no effect runs: each Seo reports its page's head here, for the
 * server entry to write into the HTML's head before the browser, or a crawler, reads it.
 */
export const PageHeadContext = createContext<((head: PageHead) => void) | null>(null);
