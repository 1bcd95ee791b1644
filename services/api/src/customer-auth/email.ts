const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );

export interface SignInEmail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail that carries a one-time sign-in link, as plain text and as HTML. */
export function signInEmail(link: string): SignInEmail {
  return {
    subject: 'Your sign-in link for LicenseStore',
    text: `Hello,

Open this link to sign in to LicenseStore and see your orders:

${link}

The link works once and expires in 15 minutes. If you did not ask to sign in, ignore this email: nobody can sign in without the link.
`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Hello,</p>
<p>Open this link to sign in to LicenseStore and see your orders:</p>
<p><a href="${escapeHtml(link)}">Sign in to LicenseStore</a></p>
<p>The link works once and expires in 15 minutes. If you did not ask to sign in, ignore this email: nobody can sign in without the link.</p>
</body></html>`,
  };
}
