// The QR code SVG is provably the code: its single path is read back into modules and compared
// with qrcode-generator's matrix, module by module, and the format information drawn in the
// picture is decoded (per ISO/IEC 18004) to show error correction level M. Plus: quiet zone,
// crisp edges, accessibility, the label, determinism.
import { QR_MODULE_PX, QR_QUIET_ZONE, qrMatrix, qrPathData, qrSvg } from './qr';

const URL = 'https://cards.example.com/verify/acme';

/** The modules an SVG path of closed axis-aligned rectangles "M x y h n v 1 h -n z" covers. */
function modulesOfPath(d: string): Set<string> {
  const dark = new Set<string>();
  const rest = d.replace(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g, (_, x: string, y: string, n: string, back: string) => {
    expect(back).toBe(n);
    for (let i = 0; i < Number(n); i++) {
      const key = `${Number(y)},${Number(x) + i}`;
      expect(dark.has(key)).toBe(false); // no module drawn twice
      dark.add(key);
    }
    return '';
  });
  expect(rest).toBe(''); // nothing in the path but those rectangles
  return dark;
}

function parse(svg: string) {
  const paths = [...svg.matchAll(/<path d="([^"]*)"/g)];
  expect(paths).toHaveLength(1);
  const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
  return { dark: modulesOfPath(paths[0][1]), width, height };
}

/** Decodes the 15-bit format information next to the top-left finder (column 8, rows 0–8 and up from the bottom). */
function formatInfo(isDark: (r: number, c: number) => boolean, size: number) {
  let vertical = 0;
  let horizontal = 0;
  for (let i = 0; i < 15; i++) {
    const row = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    if (isDark(row, 8)) vertical |= 1 << i;
    const col = i < 8 ? size - 1 - i : i < 9 ? 15 - i : 14 - i;
    if (isDark(8, col)) horizontal |= 1 << i;
  }
  const bits = vertical ^ 0b101010000010010;
  // The 10 BCH check bits must be the remainder of the 5 data bits times x^10 by the generator.
  let rem = (bits >> 10) << 10;
  for (let bit = 14; bit >= 10; bit--) if (rem & (1 << bit)) rem ^= 0b10100110111 << (bit - 10);
  const levels = ['M', 'L', 'H', 'Q'];
  return { level: levels[bits >> 13], mask: (bits >> 10) & 7, bchOk: rem === (bits & 0x3ff), copiesAgree: vertical === horizontal };
}

describe('qrSvg', () => {
  it('draws exactly the modules of the QR matrix, offset by a 4-module quiet zone', () => {
    for (const text of [URL, 'https://x.test/verify/caf%C3%A9', 'https://example.com/verify/' + 'a'.repeat(120)]) {
      const matrix = qrMatrix(text);
      const { dark, width, height } = parse(qrSvg(text));
      expect(width).toBe(matrix.size + 2 * QR_QUIET_ZONE);
      expect(height).toBe(width);
      const expected = new Set<string>();
      for (let r = 0; r < matrix.size; r++) {
        for (let c = 0; c < matrix.size; c++) if (matrix.isDark(r, c)) expected.add(`${r + QR_QUIET_ZONE},${c + QR_QUIET_ZONE}`);
      }
      expect(dark.size).toBe(expected.size);
      expect([...dark].filter((m) => !expected.has(m))).toEqual([]);
      // The quiet zone is clear.
      for (const key of dark) {
        const [r, c] = key.split(',').map(Number);
        expect(Math.min(r, c)).toBeGreaterThanOrEqual(QR_QUIET_ZONE);
        expect(Math.max(r, c)).toBeLessThan(width - QR_QUIET_ZONE);
      }
    }
  });

  it('is a well-formed QR code in the picture itself: finder patterns and format info for level M', () => {
    const { dark, width } = parse(qrSvg(URL));
    const size = width - 2 * QR_QUIET_ZONE;
    const isDark = (r: number, c: number) => dark.has(`${r + QR_QUIET_ZONE},${c + QR_QUIET_ZONE}`);
    expect((size - 17) % 4).toBe(0); // 21, 25, 29, … modules: versions 1–40
    // Three 7×7 finder patterns: dark ring, light ring, dark 3×3 core.
    for (const [top, left] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
      for (let r = 0; r < 7; r++) {
        for (let c = 0; c < 7; c++) {
          const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
          expect(isDark(top + r, left + c)).toBe(ring !== 2);
        }
      }
    }
    expect(formatInfo(isDark, size)).toEqual({ level: 'M', mask: expect.any(Number), bchOk: true, copiesAgree: true });
  });

  it('encodes text as UTF-8 bytes', () => {
    // "é" is 2 bytes in UTF-8; as Latin-1 it would be 1, and a different (smaller) payload.
    const ascii = qrMatrix('https://x.test/?n=' + 'e'.repeat(30));
    const utf8 = qrMatrix('https://x.test/?n=' + 'é'.repeat(30));
    expect(utf8.size).toBeGreaterThan(ascii.size);
  });

  it('is one crisp path in a printable, accessible SVG', () => {
    const svg = qrSvg(URL);
    const side = (qrMatrix(URL).size + 8) * QR_MODULE_PX;
    expect(svg).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 \\d+ \\d+" role="img" aria-labelledby="trust-qr-title">`));
    expect(svg).toContain(`<title id="trust-qr-title">QR code: ${URL}</title>`);
    expect(svg).toContain('shape-rendering="crispEdges"');
    expect(svg).toContain('<rect width="37" height="37" fill="#ffffff"/>');
    expect(svg.match(/<rect/g)).toHaveLength(1);
    expect(svg).not.toMatch(/<text|href|<image|<script/);
  });

  it('adds an escaped label under the quiet zone, shrunk to fit', () => {
    const { width, height, dark } = parse(qrSvg(URL, { label: 'Acme <Cards> & "Co"' }));
    expect(height).toBe(width + 5);
    expect(dark).toEqual(parse(qrSvg(URL)).dark); // the code itself is unchanged
    const svg = qrSvg(URL, { label: 'Acme <Cards> & "Co"' });
    expect(svg).toContain('>Acme &lt;Cards&gt; &amp; &quot;Co&quot;</text>');
    const y = Number(/<text x="[\d.]+" y="([\d.]+)"/.exec(svg)![1]);
    expect(y).toBeGreaterThan(width); // below the quiet zone, never inside it
    const long = qrSvg(URL, { label: 'x'.repeat(200) });
    expect(long).toContain('x'.repeat(63) + '…</text>');
    const fontSize = Number(/font-size="([\d.]+)"/.exec(long)![1]);
    expect(fontSize * 0.6 * 64).toBeLessThanOrEqual(width);
  });

  it('is deterministic', () => {
    expect(qrSvg(URL, { label: 'acme' })).toBe(qrSvg(URL, { label: 'acme' }));
    expect(qrPathData(qrMatrix(URL))).toBe(qrPathData(qrMatrix(URL)));
    expect(qrSvg(URL)).not.toBe(qrSvg(URL + '2'));
  });
});
