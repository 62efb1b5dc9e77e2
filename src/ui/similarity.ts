// How a match is put into words: the similarity comes from the verification sketch's estimate.
import type { MatchSummary } from '../messaging/protocol';

export function describeMatch(m: MatchSummary): string {
  switch (m.kind) {
    case 'same-text':
      return 'the same text';
    case 'near-duplicate':
      return `${Math.round(100 * (m.resemblance ?? 0))}% the same`;
    case 'contains-earlier':
      return 'contains most of what you read';
    case 'part-of-earlier':
      return 'part of a longer page you read';
    case 'fingerprint':
      return 'nearly the same';
  }
}
