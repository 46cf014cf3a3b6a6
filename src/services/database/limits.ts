/** The longest texts kept, as the tables' CHECKs allow (longer ones get a clear reply, not a crash). */
export const MAX_LENGTH = { task: 2000, category: 100, list: 200, item: 500 } as const;
