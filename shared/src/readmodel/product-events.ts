import { type ProductEvent, parseProductEvent } from '../catalogue/events.js';
import { batchParser } from './batch-parser.js';

/** The product-stream events of a batch, their product ids in lower case (the folds key maps by the id text). */
export const parseProductBatch = batchParser<ProductEvent>({
  category: 'product',
  parse: (event) => {
    const product = parseProductEvent(event.type, event.data);
    if (!product) return null;
    // The parsed data is shared with the event's other readers: a different spelling gets a copy.
    const productId = product.data.productId.toLowerCase();
    return productId === product.data.productId
      ? product
      : ({ ...product, data: { ...product.data, productId } } as ProductEvent);
  },
  describes: 'a product event',
});
