/**
 * Text a merchant sends for the user's phone (the binding message, the transaction text of spec 4.7) as the
 * app gets it: never HTML. The app shows plain text as text and markdown as markdown; both come here first, so
 * an app that renders markdown with inline HTML allowed (many renderers do), or puts text in a web view, still
 * receives nothing a browser would run or fetch:
 *
 * - every HTML construct is removed: anything from `<` followed by a letter, `/`, `!` or `?` (tags, comments,
 *   declarations, processing instructions, CommonMark autolinks) up to the next `>`, or to the end of the text
 *   when it is never closed (a lenient HTML parser would still make a tag of it); repeated until none is left,
 *   so pieces cannot join into a new tag;
 * - markdown images become links (nothing is fetched when the text is shown), and link or reference syntax
 *   whose destination is not https is broken up so it reads as text (no `javascript:`, `data:` or
 *   `vbscript:` links);
 * - control characters other than tab and newline are removed.
 *
 * A lone `<` or `>` that starts no construct stays: "amount < 100" and markdown quotes (`> …`) read as sent.
 */
export function appDisplayText(content: string, type: 'text' | 'markdown' = 'text'): string {
  let out = content.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
  let before: string;
  do {
    before = out;
    out = out.replace(/<[A-Za-z/!?][^>]*(?:>|$)/g, '');
  } while (out !== before);
  if (type === 'markdown') out = withoutUnsafeMarkdown(out);
  return out;
}

/**
 * Link and image syntax is disarmed where it starts, so nesting (`[a [b] c](javascript:…)`) cannot hide it:
 * `![` loses its `!` (an image becomes a link: nothing is fetched when the text is shown), and `](` or `]:` not
 * followed by an https destination gets a space (`] (`, `] :`), which CommonMark no longer reads as a link or
 * a reference definition; the words stay.
 */
function withoutUnsafeMarkdown(text: string): string {
  return text
    .replace(/!\[/g, '[')
    .replace(/\]\((?![ \t]*<?https:\/\/)/gi, '] (')
    .replace(/\]:(?![ \t]*\n?[ \t]*<?https:\/\/)/gi, '] :');
}
