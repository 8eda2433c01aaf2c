// compareCondition: does an offered condition satisfy a requested one? Raw and graded cards sit on
// different scales, so across them the answer is at best a near miss the buyer can look at.
import type { Condition, ConditionFit } from './catalog.types';
import { foldConditionLabel } from './condition';
import { plural } from './text';

/** Graded offers this far below the requested grade (or less) are near misses. */
export const GRADED_NEAR_MISS = 1;
/** Raw offers this many steps below the requested rank are near misses. */
export const RAW_NEAR_MISS = 1;
/** Raw ranks good enough to be a near miss for a graded request: Mint and Near Mint. */
export const RAW_RANK_NEAR_GRADED = 5;

export function compareCondition(requested: Condition, offered: Condition): ConditionFit {
  if (requested.kind === 'unknown' || offered.kind === 'unknown') {
    const same = foldConditionLabel(requested.label) === foldConditionLabel(offered.label);
    return fit(
      same ? 'meets' : 'no',
      0,
      same
        ? `"${offered.label}" is the requested condition "${requested.label}".`
        : `"${offered.label}" cannot be compared with the requested "${requested.label}" (unrecognised condition).`,
    );
  }

  if (requested.kind === 'raw' && offered.kind === 'raw') {
    const margin = offered.rank - requested.rank;
    if (margin >= 0) return fit('meets', margin, `${offered.label} ${above(margin, 'step')} the requested ${requested.label}.`);
    const verdict = -margin <= RAW_NEAR_MISS ? 'near_miss' : 'no';
    return fit(verdict, margin, `${offered.label} is ${plural(-margin, 'step')} below the requested ${requested.label}.`);
  }

  if (requested.kind === 'graded' && offered.kind === 'graded') {
    const margin = offered.grade - requested.grade;
    const sameCompany = offered.company === requested.company;
    if (margin >= 0) {
      return fit('meets', margin, `${offered.label} ${above(margin, 'grade')} the requested ${requested.label}.`, sameCompany);
    }
    const verdict = -margin <= GRADED_NEAR_MISS ? 'near_miss' : 'no';
    return fit(verdict, margin, `${offered.label} is ${plural(-margin, 'grade')} below the requested ${requested.label}.`, sameCompany);
  }

  if (requested.kind === 'graded' && offered.kind === 'raw') {
    const close = offered.rank >= RAW_RANK_NEAR_GRADED;
    return fit(
      close ? 'near_miss' : 'no',
      0,
      `${offered.label} is a raw card, and the request asks for ${requested.label}${close ? '' : ' (only raw Mint or Near Mint come close)'}.`,
    );
  }

  return fit(
    'near_miss',
    0,
    `A graded card (${offered.label}) was offered for a request for a raw ${requested.label} card.`,
  );
}

function fit(verdict: ConditionFit['verdict'], margin: number, reason: string, sameCompany = false): ConditionFit {
  return { verdict, margin, sameCompany, reason };
}

function above(margin: number, unit: string): string {
  return margin === 0 ? 'matches' : `is ${plural(margin, unit)} above`;
}
