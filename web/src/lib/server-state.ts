/**
 * The id of the JSON script element in which a page rendered on the server carries the answers it was drawn from
 * (react-query's dehydrated cache), so the browser starts from them instead of asking the store again.
 */
export const SERVER_STATE_ELEMENT_ID = 'server-state';
