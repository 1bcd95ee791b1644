import { useContext, useEffect } from 'react';
import { pageTitle } from '@/config/site';
import { PageHeadContext } from './page-head';

export interface SeoProps {
  /** The page's own title; the site name is appended. */
  title?: string;
  description: string;
  /** Pages that should stay out of search results (checkout, confirmations, accounts). */
  noindex?: boolean;
  /** schema.org objects, emitted as one JSON-LD block each. */
  structuredData?: object[];
}

/** Sets `<meta name|property=key>` in the head, adding it when missing; null removes it. */
function setMeta(attribute: 'name' | 'property', key: string, content: string | null) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (content === null) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.append(element);
  }
  element.content = content;
}

/** `<` is escaped so that no text from a product can close the script element. */
const jsonLd = (data: object) => JSON.stringify(data).replace(/</g, '\\u003c');

/**
 * The page's title, meta description and robots rule, written into the head by the server for a page it renders and
 * updated in place as the browser moves between pages (index.html carries the defaults of the others), and its
 * structured data. JSON-LD is data, not script, so the CSP does not block it.
 */
export function Seo({ title, description, noindex = false, structuredData = [] }: SeoProps) {
  useContext(PageHeadContext)?.({ title: pageTitle(title), description, noindex });
  useEffect(() => {
    document.title = pageTitle(title);
    setMeta('name', 'description', description);
    setMeta('name', 'robots', noindex ? 'noindex, nofollow' : null);
    // Link previews in chats and social sites read these.
    setMeta('property', 'og:title', pageTitle(title));
    setMeta('property', 'og:description', description);
  }, [title, description, noindex]);

  return (
    <>
      {structuredData.map((data) => (
        <script
          key={jsonLd(data)}
          type="application/ld+json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD, serialised and escaped above
          dangerouslySetInnerHTML={{ __html: jsonLd(data) }}
        />
      ))}
    </>
  );
}
