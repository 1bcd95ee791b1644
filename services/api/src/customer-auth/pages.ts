/** Server-rendered pages of the customer sign-in: no script (the CSP allows none inline), one linked style sheet. */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · LicenseStore</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/sign-in.css">
</head>
<body>
<main class="card">
<p class="brand"><a href="/">LicenseStore</a></p>
${body}
</main>
</body>
</html>
`;
}

export interface SignInFormOptions {
  email?: string;
  error?: string;
}

/** GET /api/login, and the same form again with a message when the address was not valid. */
export function signInPage({ email = '', error }: SignInFormOptions = {}): string {
  const invalid = error
    ? ` aria-invalid="true" aria-describedby="email-error"`
    : ` aria-describedby="email-hint"`;
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p>Enter the e-mail address you use at checkout. We will e-mail you a link that signs you in; no password needed.</p>
<form method="post" action="/api/login" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="254" value="${escapeHtml(email)}"${invalid}>
${
  error
    ? `<p id="email-error" class="error" role="alert">${escapeHtml(error)}</p>`
    : `<p id="email-hint" class="hint">The link works once and expires after 15 minutes.</p>`
}
<button type="submit">Email me a sign-in link</button>
</form>
<p class="secondary"><a href="/">Back to the store</a></p>`,
  );
}

/** The answer to every accepted request for a link, whether or not a link was sent (no address oracle). */
export function checkInboxPage(email: string): string {
  return layout(
    'Check your inbox',
    `<h1>Check your inbox</h1>
<p role="status">If <strong>${escapeHtml(email)}</strong> can receive e-mail, a sign-in link is on its way to it.</p>
<p>Open the link on this device within 15 minutes. It works once. Nothing arrived? Check your spam folder, or wait a few minutes and ask again.</p>
<p class="secondary"><a href="/api/login">Use another address</a> · <a href="/">Back to the store</a></p>`,
  );
}

/** A used, expired, unknown or malformed token. */
export function linkExpiredPage(): string {
  return layout(
    'Link expired',
    `<h1>This sign-in link has expired or was already used</h1>
<p>Sign-in links work once and only for 15 minutes. Ask for a new one and open it soon after it arrives.</p>
<p><a class="button" href="/api/login">Get a new sign-in link</a></p>
<p class="secondary"><a href="/">Back to the store</a></p>`,
  );
}

/**
 * A sign-in link opened from another site (a webmail page, a link scanner): nothing happens until the visitor
 * presses the button, so no page elsewhere can sign a browser into somebody else's account, and a scanner that
 * fetches links does not use up the one-time token.
 */
export function confirmSignInPage(token: string): string {
  return layout(
    'Sign in',
    `<h1>Sign in to LicenseStore</h1>
<p>Press the button to finish signing in with the link from your e-mail.</p>
<form method="post" action="/api/login/callback">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Sign in</button>
</form>
<p class="secondary"><a href="/">Back to the store</a></p>`,
  );
}

/** /api/logout reached from another site: signing out waits for the visitor's own button press. */
export function confirmSignOutPage(): string {
  return layout(
    'Sign out',
    `<h1>Sign out of LicenseStore?</h1>
<form method="post" action="/api/logout">
<button type="submit">Sign out</button>
</form>
<p class="secondary"><a href="/account">Stay signed in</a></p>`,
  );
}

/** The mail could not be handed over (SMTP down): nothing about the address, just try again. */
export function sendFailedPage(): string {
  return layout(
    'Try again',
    `<h1>We could not send the e-mail just now</h1>
<p role="alert">Please try again in a few minutes.</p>
<p><a class="button" href="/api/login">Try again</a></p>`,
  );
}

export interface SignInEmail {
  subject: string;
  text: string;
  html: string;
}

export function signInEmail(link: string): SignInEmail {
  return {
    subject: 'Your sign-in link for LicenseStore',
    text: `Hello,

Open this link to sign in to LicenseStore and see your orders:

${link}

The link works once and expires in 15 minutes. If you did not ask to sign in, ignore this e-mail: nobody can sign in without the link.
`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Hello,</p>
<p>Open this link to sign in to LicenseStore and see your orders:</p>
<p><a href="${escapeHtml(link)}">Sign in to LicenseStore</a></p>
<p>The link works once and expires in 15 minutes. If you did not ask to sign in, ignore this e-mail: nobody can sign in without the link.</p>
</body></html>`,
  };
}
