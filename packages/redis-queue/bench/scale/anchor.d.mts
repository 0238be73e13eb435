/** Last commit with the 0.1 layout (see anchor.mjs). */
export declare const ANCHOR_COMMIT: string;
/** Builds the 0.1 package from git once (cached by commit) and returns the file URL of its ESM entry. */
export declare function buildAnchor(commit?: string): string;
