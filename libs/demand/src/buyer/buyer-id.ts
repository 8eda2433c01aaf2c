// Who a widget buyer is, without saying it: a buyer id derived per workspace from the normalized
// email with an HMAC under a key only the server holds (derived from the SecretBox master key).
// The same address always gives the same id in a workspace (a returning buyer is recognized, two
// workspaces never share one), and the id alone reveals nothing of the address.
import { createHmac } from 'node:crypto';

import { base32, normalizeEmail, RFC4648_BASE32_LOWER } from '@app/platform';

export const BUYER_ID_PREFIX = 'buyer_';
/** What a buyer id looks like: the prefix and 26 lowercase base32 characters (130 bits of the HMAC). */
export const BUYER_ID_PATTERN = /^buyer_[a-z2-7]{26}$/;
/** The purpose the HMAC key is derived for (SecretBox.deriveKey). */
export const BUYER_ID_KEY_PURPOSE = 'buyer-id:v1';

export { normalizeEmail };

/** The buyer id of an email in a workspace. */
export function buyerIdOf(key: Buffer, workspaceId: string, email: string): string {
  const mac = createHmac('sha256', key).update(`${workspaceId}\n${normalizeEmail(email)}`).digest();
  return `${BUYER_ID_PREFIX}${base32(mac, 26, RFC4648_BASE32_LOWER)}`;
}
