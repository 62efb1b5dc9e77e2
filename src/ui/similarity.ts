// How a match is put into words: the similarity comes from the verification sketch's estimate.
import type { MatchSummary } from '../messaging/protocol';
import { t } from './i18n';

export function describeMatch(m: Pick<MatchSummary, 'kind' | 'resemblance' | 'containment'>): string {
  switch (m.kind) {
    case 'same-text':
      return t('matchSameText');
    case 'near-duplicate':
      return t('matchPercent', Math.round(100 * (m.resemblance ?? 0)));
    case 'contains-earlier':
      return t('matchContainsEarlier');
    case 'part-of-earlier':
      return t('matchPartOfEarlier');
    case 'fingerprint':
      return t('matchNearly');
  }
}
