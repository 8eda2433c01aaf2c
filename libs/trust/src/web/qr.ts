// The printable QR code (GET /api/embed/trust-qr/<slug>): an SVG that encodes the verification
// URL, for a seller's shop counter or packing slips. Made with qrcode-generator at error
// correction M, a 4-module quiet zone, and a single <path> of dark modules (one sub-path per
// horizontal run) with crispEdges, so it stays small and sharp at any print size. Pure and
// deterministic. The unit test reads the path back into modules and compares them with the
// library's matrix, so the picture is provably the code.
import qrcode from 'qrcode-generator';

import { xmlEscape } from './badge';

/** The quiet zone around the code, in modules (the QR spec's minimum). */
export const QR_QUIET_ZONE = 4;
/** Pixels per module in the SVG's default size (it scales freely: it has a viewBox). */
export const QR_MODULE_PX = 8;
/** Height of the optional label band under the quiet zone, in modules. */
const LABEL_BAND = 5;
const LABEL_MAX = 64;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export interface QrMatrix {
  size: number;
  isDark(row: number, col: number): boolean;
}

/**
 * The library's byte mode takes each char's low 8 bits, so hand it the UTF-8 bytes as chars:
 * a URL with non-ASCII text then encodes as UTF-8, without touching the library's shared state.
 */
function utf8AsByteChars(text: string): string {
  return String.fromCharCode(...new TextEncoder().encode(text));
}

/** The QR matrix for `text` (byte mode, error correction M, smallest version that fits). */
export function qrMatrix(text: string): QrMatrix {
  const code = qrcode(0, 'M');
  code.addData(utf8AsByteChars(text), 'Byte');
  code.make();
  return { size: code.getModuleCount(), isDark: (row, col) => code.isDark(row, col) };
}

/**
 * Path data for the dark modules, offset by the quiet zone: for each row, each horizontal run of
 * dark modules is one closed rectangle "M{x} {y}h{n}v1h-{n}z".
 */
export function qrPathData(matrix: QrMatrix, offset = QR_QUIET_ZONE): string {
  const parts: string[] = [];
  for (let row = 0; row < matrix.size; row++) {
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.isDark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.isDark(row, col)) col++;
      const run = col - start;
      parts.push(`M${start + offset} ${row + offset}h${run}v1h-${run}z`);
    }
  }
  return parts.join('');
}

/** The label shrunk (in font size) to fit the code's width, and cut at LABEL_MAX code points. */
function labelText(label: string, width: number): string {
  const points = Array.from(label.replace(/\s+/g, ' ').trim());
  const text = points.length > LABEL_MAX ? points.slice(0, LABEL_MAX - 1).join('') + '…' : points.join('');
  if (!text) return '';
  // ~0.6 em per character is a safe estimate for a sans-serif; never larger than 2.6 modules.
  const fontSize = Math.min(2.6, (width - 2) / (Array.from(text).length * 0.6));
  const y = width + LABEL_BAND / 2;
  return (
    `<text x="${width / 2}" y="${round(y)}" font-family="${FONT}" font-size="${round(fontSize)}" ` +
    `text-anchor="middle" dominant-baseline="middle" fill="#000000">${xmlEscape(text)}</text>`
  );
}

function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export function qrSvg(url: string, options: { label?: string } = {}): string {
  const matrix = qrMatrix(url);
  const width = matrix.size + 2 * QR_QUIET_ZONE;
  const label = options.label ? labelText(options.label, width) : '';
  const height = label ? width + LABEL_BAND : width;
  const title = `QR code: ${url}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width * QR_MODULE_PX}" height="${height * QR_MODULE_PX}" ` +
    `viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="trust-qr-title">` +
    `<title id="trust-qr-title">${xmlEscape(title)}</title>` +
    `<rect width="${width}" height="${height}" fill="#ffffff"/>` +
    `<path d="${qrPathData(matrix)}" fill="#000000" shape-rendering="crispEdges"/>` +
    label +
    `</svg>`
  );
}
