// Prices as a buyer reads them in the widget's messages: formatted as money in the shop's currency
// ("$100,000,000.00", "€12.50"), in English like the rest of the widget. The widget's script
// formats the same way in the browser (Intl), so the server's messages and the widget's agree.
import { MAX_AMOUNT } from '@app/platform';

/** `amount` (major units) as money in `currency`: `$1,250.00`; an unknown code is written after the number. */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    // Not a code Intl knows the shape of: the number as money, then the code.
    return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** The highest price a want can name (the API's money ceiling). */
export const MAX_WANT_PRICE = MAX_AMOUNT;

/** What a buyer is told for a price over the ceiling: "Enter a price up to $100,000,000.00". */
export const priceTooHighMessage = (currency: string): string => `Enter a price up to ${formatMoney(MAX_WANT_PRICE, currency)}`;
