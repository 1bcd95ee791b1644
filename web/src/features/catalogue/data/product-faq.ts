import type { Product } from '@licensestore/domain';
import type { FaqEntry } from '@/lib/structured-data';

/** The six questions on every product page, shown as an accordion and emitted as FAQPage data. */
export const productFaq = (product: Pick<Product, 'name' | 'platform'>): FaqEntry[] => [
  {
    question: 'How will I receive my license key?',
    answer:
      'By email, within 15-30 minutes of payment. The email holds your license key, the official download link and step-by-step installation instructions.',
  },
  {
    question: 'Is this a genuine license?',
    answer:
      'Yes. Every key we sell is 100% genuine and activates with the publisher. If a key ever fails to activate, we replace it or refund you.',
  },
  {
    question: 'Is this a one-time payment or a subscription?',
    answer: `A one-time payment. ${product.name} comes with a lifetime license: no subscription and no renewal fees.`,
  },
  {
    question: 'Which devices does it work on?',
    answer: `This license is for ${product.platform}. Check the product description for the editions and number of devices it covers.`,
  },
  {
    question: 'What if I need help installing or activating?',
    answer:
      'Our support team is available 24/7 by live chat and email, and support lasts for the lifetime of your license.',
  },
  {
    question: 'Can I get a refund?',
    answer:
      "Yes. Every purchase carries a 30-day money-back guarantee: if the license doesn't work as described, we refund you in full.",
  },
];
