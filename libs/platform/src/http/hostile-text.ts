// The one rule for text in requests, applied to every string of every body, query and path — values
// and the keys that name them alike (JSON keys, CSV header cells, query parameter names), since a
// key is stored as surely as its value — by ZodPipe, before a schema sees it: no control characters but tab, line feed and carriage return;
// no bidirectional embedding, override or isolate characters (the "Trojan Source" set, which make
// text display in another order than it is stored); no lone surrogate halves (not Unicode text at
// all: SQLite and JSON encoders would replace or drop them). Such text is refused with a 400 naming
// the field, never stored and never silently changed. Zero-width characters are legitimate text
// (ZWJ joins emoji and some scripts); where normalization is the point (card and set names) the
// catalogue removes them and reports it in the normalization changes.

const HOSTILE = /(?![\t\n\r])[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;
const HOSTILE_ALL = new RegExp(HOSTILE.source, 'gu');

export interface HostileText {
  /**
   * Where it is, as zod spells issue paths: `cardName`, `2.setName`, `` for the part itself. For a
   * key, the path to the key itself, its offending characters spelled as `\uXXXX` escapes (so the
   * answer never carries them): `0.Card\u202EName`.
   */
  path: string;
  /** What was found, for the message: `U+0000 (a control character)`. */
  found: string;
  /** True when the offender is a key (a JSON key, a CSV header cell, a query parameter name), not a value. */
  key: boolean;
}

/** Where a value sits: its key and its parent's place, so a path is spelled only for an offender. */
interface Place {
  value: unknown;
  key?: string;
  parent?: Place;
}

/**
 * The first string in `value` (arrays and objects walked depth-first, in order; an object's key
 * before its value) that breaks the rule. Iterative: a body nested 100,000 deep is walked without
 * exhausting the call stack.
 */
export function findHostileText(value: unknown): HostileText | undefined {
  const stack: Place[] = [{ value }];
  while (stack.length > 0) {
    const place = stack.pop() as Place;
    const current = place.value;
    // Array indices never match; an object's keys are checked here, as their entries are reached.
    const inKey = place.key === undefined ? null : HOSTILE.exec(place.key);
    if (inKey) return { path: pathOf(place), found: describe(inKey[0]), key: true };
    if (typeof current === 'string') {
      const match = HOSTILE.exec(current);
      if (match) return { path: pathOf(place), found: describe(match[0]), key: false };
    } else if (current !== null && typeof current === 'object') {
      const entries = Array.isArray(current) ? current.map((item, i) => [String(i), item] as const) : Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: place });
    }
  }
  return undefined;
}

/** The path to `place`; keys are walked before what they hold, so only its own key may need escapes. */
function pathOf(place: Place): string {
  const keys: string[] = [];
  for (let at: Place | undefined = place; at?.key !== undefined; at = at.parent) keys.push(at.key);
  if (keys.length > 0) keys[0] = escapeHostile(keys[0]);
  return keys.reverse().join('.');
}

/** `text` with each character the rule refuses spelled as a `\uXXXX` escape: safe to show and to log. */
export function escapeHostile(text: string): string {
  return text.replace(HOSTILE_ALL, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
}

function describe(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code >= 0xd800 && code <= 0xdfff) return `${hex} (a lone surrogate: not valid Unicode text)`;
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return `${hex} (a bidirectional control character)`;
  return `${hex} (a control character)`;
}
