/**
 * Hides the credentials a database setting may carry, wherever it ends up in
 * text restmint prints or logs: the password in a URL's user info
 * (`postgres://ada:secret@host/db` → `postgres://ada:***@host/db`), and the
 * value of any password key in a query string (`?password=secret`,
 * `&sslpassword=…`) or a keyword/value connection string
 * (`host=db password=secret`, `password='s3 cr3t'`). Everything else, the
 * user name and host included, stays: they are what a reader needs to fix a
 * setting. Applying it twice changes nothing.
 */
export function redactCredentials(text: string): string {
  return text.replace(URL_PASSWORD, '$1:***@').replace(PASSWORD_SETTING, '$1=***')
}

// `scheme://user:password@`: the password runs to the authority's last `@`, as URL parsers read it.
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#]*):[^\s/?#]*@/gi

// `password=…` and its kin (`sslpassword`, `passwd`, `pwd`): a quoted value, or up to a separator.
const PASSWORD_SETTING = /\b((?:ssl)?password|passwd|pwd)\s*=\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s&;,'"]*)/gi
