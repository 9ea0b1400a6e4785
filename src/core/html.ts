/** Text put into HTML (an element's content or a quoted attribute): `& < > " '` as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
