// Markdown for the document's descriptions, written a line an argument so that lists and tables read as
// they will render.

/** Markdown lines, one element a line. */
export const md = (...lines: string[]): string => lines.join('\n');
