/** The text without NUL characters, which Postgres text columns cannot hold. */
export const withoutNul = (text: string): string => text.replaceAll("\u0000", "");
