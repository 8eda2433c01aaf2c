// Given data / when rendered / then the email says what matched, links the shop and the
// unsubscribe page, and escapes what it is given.
import { formatPrice, headerText, renderInStockEmail, SAMPLE_LINES } from './in-stock-email';

const input = { shopName: 'Acme Cards', shopUrl: 'https://shop.acme.example', unsubscribeUrl: 'https://api.example/email/unsubscribe/u1.x.y.z', lines: [SAMPLE_LINES[0]] };

describe('the in-stock email', () => {
  it('names the card, set, condition and price of one match in the subject and body', () => {
    const email = renderInStockEmail(input);
    expect(email.subject).toBe('Charizard is in stock at Acme Cards');
    expect(email.text).toContain('Charizard — Base Set, Near Mint: $420.00');
    expect(email.text).toContain('You asked for: Charizard (Base Set, Near Mint, up to $450.00)');
    expect(email.text).toContain('See it in the shop: https://shop.acme.example');
    expect(email.text).toContain('Stop these emails: https://api.example/email/unsubscribe/u1.x.y.z');
    expect(email.html).toContain('<a href="https://shop.acme.example"');
    expect(email.html).toContain('href="https://api.example/email/unsubscribe/u1.x.y.z"');
  });

  it('gathers several matches in one email, and says "any" for what the buyer left open', () => {
    const email = renderInStockEmail({ ...input, lines: SAMPLE_LINES });
    expect(email.subject).toBe('2 cards from your want list are in stock at Acme Cards');
    expect(email.text).toContain('Pikachu — Jungle, Lightly Played: $12.00 (3 available)');
    expect(email.text).toContain('You asked for: Pikachu (any set, any condition, any price)');
  });

  it('without a shop URL asks the buyer to reply instead of linking', () => {
    const email = renderInStockEmail({ ...input, shopUrl: null });
    expect(email.text).toContain('Reply to this email to ask Acme Cards for it.');
    expect(email.html).not.toContain('See it at');
  });

  it('escapes the shop name and card names in the HTML, and keeps line breaks out of the subject', () => {
    const email = renderInStockEmail({ ...input, shopName: 'Bob <script>\r\nBcc: x@y', lines: [{ ...SAMPLE_LINES[0], cardName: 'Mew & <b>Two</b>' }] });
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('Bob &lt;script&gt;');
    expect(email.html).toContain('Mew &amp; &lt;b&gt;Two&lt;/b&gt;');
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(headerText('a\r\nb')).toBe('a b');
  });

  it('formats minor units with two decimals in the currency', () => {
    expect(formatPrice(1234550, 'USD')).toBe('$12,345.50');
    expect(formatPrice(4000, 'EUR')).toBe('€40.00');
  });
});
