import { type ProductEvent, parseProductEvent } from '@licensestore/domain/catalogue';
import { batchParser, withLowerCaseId } from './batch-parser.js';

/** The product-stream events of a batch, their product ids in lower case (the folds key maps by the id text). */
export const parseProductBatch = batchParser<ProductEvent>({
  category: 'product',
  parse: (event) => {
    const product = parseProductEvent(event.type, event.data);
    return product && withLowerCaseId(product, 'productId');
  },
  describes: 'a product event',
});
