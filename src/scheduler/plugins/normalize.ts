// DefaultNormalizeScore: scale raw scores to [0, maxPriority] by the maximum, optionally reversed.
// Upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go.
import type { NodeScore } from '../framework.ts';

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let max = 0;
  for (const s of scores) if (s.score > max) max = s.score;
  if (max === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}
