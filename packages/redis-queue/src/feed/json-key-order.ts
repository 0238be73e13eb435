// JavaScript objects list integer-like keys ("2", "10") before the others, whatever their order in the text; Python's
// json.loads keeps the text's order, and Scrapy's FormRequest encodes form fields in that order. This scanner reads
// the keys of the top-level object of a JSON text (already known to parse) in text order, last duplicate winning the
// value but the first keeping the place, as a Python dict does.

/**
 * @param text - a JSON text whose value is an object
 * @returns its top-level keys in text order, without duplicates
 */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (!keys.includes(key)) keys.push(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 1 && c === '{') expectKey = true;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return keys;
}

/** True when JavaScript would move this key ahead of the others (an array index). @param key - an object key */
export function isIndexKey(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}
