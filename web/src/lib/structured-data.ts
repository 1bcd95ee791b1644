import type { Product } from '@licensestore/domain';
import { SITE_NAME, SUPPORT_EMAIL } from '@/config/site';
import { priceToPay } from './pricing';
import { siteOrigin } from './site-origin';

/** Absolute URLs: structured data is read away from the page. */
const absolute = (path: string) => new URL(path, siteOrigin()).href;

export function organization() {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: SITE_NAME,
    url: absolute('/'),
    logo: absolute('/favicon.svg'),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer support',
      email: SUPPORT_EMAIL,
      availableLanguage: 'English',
    },
  };
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbList(crumbs: Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absolute(crumb.path),
    })),
  };
}

export interface FaqEntry {
  question: string;
  answer: string;
}

export function faqPage(entries: FaqEntry[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: entry.question,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer },
    })),
  };
}

/** Brand from category: Office or Windows gives Microsoft, Norton gives Norton, Adobe gives Adobe, else generic. */
export function brandOf(category: string): string {
  const text = category.toLowerCase();
  if (text.includes('office') || text.includes('windows')) return 'Microsoft';
  if (text.includes('norton')) return 'Norton';
  if (text.includes('adobe')) return 'Adobe';
  return 'Generic';
}

const OFFER_VALID_DAYS = 365;
/** The storefront's static rating claims: 4.8 out of 5 over 1,200+ reviews on product pages. */
const RATING = { ratingValue: '4.8', bestRating: '5', reviewCount: 1200 };

export function productData(product: Product, now = new Date()) {
  const validUntil = new Date(now.getTime() + OFFER_VALID_DAYS * 24 * 60 * 60 * 1000);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    image: absolute(product.imageUrl),
    sku: product.id,
    category: product.category,
    brand: { '@type': 'Brand', name: brandOf(product.category) },
    aggregateRating: { '@type': 'AggregateRating', ...RATING },
    offers: {
      '@type': 'Offer',
      url: absolute(`/product/${product.id}`),
      priceCurrency: 'USD',
      price: priceToPay(product),
      priceValidUntil: validUntil.toISOString().slice(0, 10),
      availability: product.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
      seller: { '@type': 'Organization', name: SITE_NAME },
    },
  };
}
