// Money is integer minor units inside and a decimal number with at most 2 places at the API.
import { z } from 'zod';

export const MAX_AMOUNT = 100_000_000; // 100 million in major units: far above any single card

/** A non-negative amount with at most two decimal places, as sent by clients. */
export const moneyAmount = z
  .number()
  .finite()
  .min(0)
  .max(MAX_AMOUNT)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'must have at most 2 decimal places');

export const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as USD')
  .transform((c) => c.toUpperCase());

export function toMinor(amount: number): number {
  return Math.round(amount * 100);
}

export function fromMinor(minor: number): number {
  return minor / 100;
}
