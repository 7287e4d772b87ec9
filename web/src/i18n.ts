// The page's words: English in the source, each looked up in the texts the server
// sends in the player's language (their DMs' language; docs/web-table.md). A
// string shown here is written t(...) so that tests/bot/test_web_front.py finds it
// in bot/web/texts.py, the list the translators' catalogue is made from.

let texts: Record<string, string> = {};

export function setTexts(given: Record<string, string> | undefined, language?: string): void {
  if (given) texts = given;
  if (language) document.documentElement.lang = language;
}

/** ``message`` in the player's language, ``{name}`` fields filled from ``vars``. */
export function t(message: string, vars: Record<string, string | number> = {}): string {
  const text = texts[message] ?? message;
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in vars ? String(vars[key]) : whole,
  );
}
