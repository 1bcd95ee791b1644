/**
 * Sign In, Sign Up and Logout navigate to the api (a full page load), which answers with a redirect to the web
 * client's page for it: the same addresses whether or not the web client is what serves those pages.
 */
export const SIGN_IN_URL = '/api/login';
export const SIGN_UP_URL = '/api/login?intent=sign-up';
export const SIGN_OUT_URL = '/api/logout';
