// Small encodings the contexts share for ids derived from bytes (keyed hashes, digests): base32,
// most significant bits first, in Crockford's alphabet (ULID-like ids) or RFC 4648's lowercase one;
// and the one form an email address is compared, hashed and sealed in.
export const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RFC4648_BASE32_LOWER = 'abcdefghijklmnopqrstuvwxyz234567';

/** The first `chars × 5` bits of `bytes` in base32 (`chars` characters; `bytes` must hold enough). */
export function base32(bytes: Uint8Array, chars: number, alphabet: string = CROCKFORD_BASE32): string {
  if (bytes.length * 8 < chars * 5) throw new RangeError(`base32: ${chars} characters need ${Math.ceil((chars * 5) / 8)} bytes, got ${bytes.length}`);
  let out = '';
  let buffer = 0;
  let held = 0;
  let i = 0;
  while (out.length < chars) {
    if (held < 5) {
      buffer = (buffer << 8) | bytes[i];
      i += 1;
      held += 8;
    }
    held -= 5;
    out += alphabet[(buffer >> held) & 31];
    buffer &= (1 << held) - 1;
  }
  return out;
}

/**
 * The form of an address that names one mailbox: trimmed, Unicode NFC, lowercased. Provider rules
 * (Gmail's dots, `+tags`) are not applied: they are the provider's, not the standard's.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}
