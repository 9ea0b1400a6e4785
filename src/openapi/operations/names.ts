/**
 * Names as the document spells them: compared whatever their case and separators, plural to
 * singular, and paths without a format suffix.
 */

/** Case and separators ignored: `AccountSid`, `account_sid` and `account-sid` are one name. */
export function bare(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The property a parameter names, whatever the case and separators (`AccountSid` → `account_sid`). */
export function propertyNamed(param: string, properties: string[]): string | undefined {
  return properties.find((name) => bare(name) === bare(param));
}

/** `categories` -> `category`, `boxes` -> `box`, `pets` -> `pet`. */
export function singular(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + 'y';
  if (/(s|x|z|ch|sh)es$/i.test(word)) return word.slice(0, -2);
  if (/[^s]s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/** `/Accounts/{Sid}.json` → `/Accounts/{Sid}`: a format suffix is no part of a resource's name. */
export function stripSuffix(path: string): string {
  return path.replace(/(\}|[A-Za-z0-9_-])\.(json|xml|csv|yaml)$/i, '$1');
}
