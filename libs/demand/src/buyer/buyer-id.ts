// Who a widget buyer is, without saying it: a buyer id derived per workspace from the normalized
// email with an HMAC under a key only the server holds (derived from the SecretBox master key).
// The same address always gives the same id in a workspace (a returning buyer is recognized, two
// workspaces never share one), and the id alone reveals nothing of the address.
import { createHmac } from 'node:crypto';

export const BUYER_ID_PREFIX = 'buyer_';
/** What a buyer id looks like: the prefix and 26 lowercase base32 characters (130 bits of the HMAC). */
export const BUYER_ID_PATTERN = /^buyer_[a-z2-7]{26}$/;
/** The purpose the HMAC key is derived for (SecretBox.deriveKey). */
export const BUYER_ID_KEY_PURPOSE = 'buyer-id:v1';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The form of an address that names one mailbox: trimmed, Unicode NFC, lowercased. Provider rules
 * (Gmail's dots, `+tags`) are not applied: they are the provider's, not the standard's.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

function base32(bytes: Buffer, length: number): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/** The buyer id of an email in a workspace. */
export function buyerIdOf(key: Buffer, workspaceId: string, email: string): string {
  const mac = createHmac('sha256', key).update(`${workspaceId}\n${normalizeEmail(email)}`).digest();
  return `${BUYER_ID_PREFIX}${base32(mac, 26)}`;
}
