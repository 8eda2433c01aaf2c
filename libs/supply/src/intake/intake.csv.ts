// A small RFC 4180 CSV reader for intake uploads: a header row, then one raw row per record.
// Quoted fields (with "" escapes and line breaks inside), CRLF / LF / CR line ends, a leading BOM.
// The delimiter is a comma, or a semicolon / tab when the header uses one of those instead
// (spreadsheets in many locales export `;`).

export interface CsvTable {
  /** Column names as written (trimmed); duplicates get a ` (2)` suffix so no value is lost. */
  header: string[];
  /** One object per record: header name → field text. Blank lines are skipped. */
  rows: Array<Record<string, string>>;
}

export class CsvError extends Error {
  override readonly name = 'CsvError';
  constructor(
    message: string,
    /** 1-based line of the text where the problem is. */
    readonly line: number,
  ) {
    super(`CSV line ${line}: ${message}`);
  }
}

const DELIMITERS = [',', ';', '\t'] as const;

/** Records of the text as arrays of fields, each with the line it starts on. */
function records(text: string, delimiter: string): Array<{ fields: string[]; line: number }> {
  const out: Array<{ fields: string[]; line: number }> = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  // Whether the current field started with a quote (then only `""` and the closing quote are special).
  let inQuotes = false;
  const endRecord = (): void => {
    fields.push(field);
    // A record that is one empty field is a blank line.
    if (fields.length > 1 || fields[0] !== '' || quoted) out.push({ fields, line: recordLine });
    fields = [];
    field = '';
    quoted = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else {
          inQuotes = false;
        }
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      inQuotes = true;
      quoted = true;
    } else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      // Lenient like most readers: a quote inside an unquoted field, or text after a closing
      // quote, is kept literally rather than failing the whole upload.
      field += c;
    }
  }
  if (inQuotes) throw new CsvError('a quoted field is never closed', recordLine);
  if (field !== '' || fields.length > 0 || quoted) endRecord();
  return out;
}

/** The delimiter of the header line: the candidate that occurs most often outside quotes. */
function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let inQuotes = false;
  for (const c of text) {
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (c === '\n' || c === '\r')) break;
    else if (!inQuotes && counts.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

export function parseCsv(input: string): CsvTable {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const all = records(text, detectDelimiter(text));
  if (all.length === 0) throw new CsvError('the text is empty: send a header row and at least one record', 1);
  const [first, ...rest] = all;
  const header = uniqueNames(first.fields.map((name) => name.trim()));
  if (header.every((name) => name === '')) throw new CsvError('the header row names no column', first.line);
  const rows = rest.map(({ fields }) => {
    const row: Record<string, string> = {};
    fields.forEach((value, i) => {
      // Fields beyond the header get positional names, so they surface as unknown columns.
      const name = i < header.length ? header[i] : `column ${i + 1}`;
      if (name !== '' || value !== '') row[name === '' ? `column ${i + 1}` : name] = value;
    });
    return row;
  });
  return { header, rows };
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    // Unnamed columns stay unnamed: their values get positional names.
    if (name === '') return name;
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}
