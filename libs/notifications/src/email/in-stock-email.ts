// The buyer's "in stock" email, rendered from plain data: subject, text and HTML. Pure (no I/O):
// the sender fills it from the requests' and items' read models, the preview from sample data.
// Every value is escaped in the HTML; nothing is taken from the buyer's contact except what the
// sender puts in the envelope (the address is never part of the body).

export interface InStockLine {
  /** What the shop has: the item. */
  cardName: string;
  setName: string;
  condition: string;
  priceMinor: number;
  currency: string;
  /** Units for sale now. */
  available: number;
  /** What the buyer asked for (set, condition or maximum price null: any). */
  wanted: { cardName: string; setName: string | null; condition: string | null; maxPriceMinor: number | null; currency: string };
}

export interface InStockEmailInput {
  shopName: string;
  /** The shop's web address; null: no link. */
  shopUrl: string | null;
  /** The one-click unsubscribe page. */
  unsubscribeUrl: string;
  lines: readonly InStockLine[];
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** An amount in minor units as `$12.50` (two decimals; the currency's symbol where Intl knows it). */
export function formatPrice(minor: number, currency: string): string {
  const major = (minor / 100).toFixed(2);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(major));
  } catch {
    return `${major} ${currency}`;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Header-safe text: no line breaks or control characters (a name set by the seller goes into Subject and From). */
export function headerText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function wantedText(line: InStockLine): string {
  const w = line.wanted;
  const parts = [w.setName ?? 'any set', w.condition ?? 'any condition', w.maxPriceMinor === null ? 'any price' : `up to ${formatPrice(w.maxPriceMinor, w.currency)}`];
  return `${w.cardName} (${parts.join(', ')})`;
}

export function renderInStockEmail(input: InStockEmailInput): RenderedEmail {
  const shop = headerText(input.shopName) || 'The shop';
  const lines = input.lines;
  const subject =
    lines.length === 1 ? `${headerText(lines[0].cardName)} is in stock at ${shop}` : `${lines.length} cards from your want list are in stock at ${shop}`;

  const text = [
    'Good news: a card you asked us to look out for is in stock.',
    '',
    ...lines.flatMap((l) => [
      `* ${l.cardName} — ${l.setName}, ${l.condition}: ${formatPrice(l.priceMinor, l.currency)}${l.available > 1 ? ` (${l.available} available)` : ''}`,
      `  You asked for: ${wantedText(l)}`,
    ]),
    '',
    input.shopUrl ? `See it in the shop: ${input.shopUrl}` : `Reply to this email to ask ${shop} for it.`,
    '',
    `— ${shop}`,
    '',
    `You get this email because you left a want list with ${shop}. Stop these emails: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');

  const e = escapeHtml;
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="padding:8px 12px;border-bottom:1px solid #e5e7eb"><strong>${e(l.cardName)}</strong><br><span style="color:#4b5563">${e(l.setName)} · ${e(l.condition)}</span>` +
        `<br><span style="color:#6b7280;font-size:13px">You asked for: ${e(wantedText(l))}</span></td>` +
        `<td style="padding:8px 12px;border-bottom:1px solid #e5e7eb;text-align:right;white-space:nowrap"><strong>${e(formatPrice(l.priceMinor, l.currency))}</strong>` +
        `${l.available > 1 ? `<br><span style="color:#6b7280;font-size:13px">${l.available} available</span>` : ''}</td></tr>`,
    )
    .join('');
  const action = input.shopUrl
    ? `<p style="margin:24px 0"><a href="${e(input.shopUrl)}" style="background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">See it at ${e(shop)}</a></p>`
    : `<p>Reply to this email to ask ${e(shop)} for it.</p>`;
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827">` +
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">` +
    `<h1 style="font-size:20px;margin:0 0 8px">${e(shop)}</h1>` +
    `<p style="margin:0 0 16px">Good news: a card you asked us to look out for is in stock.</p>` +
    `<table style="width:100%;border-collapse:collapse">${rows}</table>` +
    action +
    `<p style="color:#6b7280;font-size:12px;margin-top:32px">You get this email because you left a want list with ${e(shop)}. ` +
    `<a href="${e(input.unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a></p>` +
    `</div></body></html>`;

  return { subject, text, html };
}

/** The sample the preview renders (the seller's own name, URL and settings around it). */
export const SAMPLE_LINES: readonly InStockLine[] = [
  {
    cardName: 'Charizard',
    setName: 'Base Set',
    condition: 'Near Mint',
    priceMinor: 42000,
    currency: 'USD',
    available: 1,
    wanted: { cardName: 'Charizard', setName: 'Base Set', condition: 'Near Mint', maxPriceMinor: 45000, currency: 'USD' },
  },
  {
    cardName: 'Pikachu',
    setName: 'Jungle',
    condition: 'Lightly Played',
    priceMinor: 1200,
    currency: 'USD',
    available: 3,
    wanted: { cardName: 'Pikachu', setName: null, condition: null, maxPriceMinor: null, currency: 'USD' },
  },
];
