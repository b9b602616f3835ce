// Types of kit.mjs for the tests that run hostile cases (test/trust-events-log.test.ts).
export type Verdict = 'refused' | 'accepted' | 'unclean' | 'crash';
export interface Judged {
  verdict: Verdict;
  detail: string;
}
export interface HostileCase {
  name: string;
  expect: Verdict;
  run(kit: Kit): Promise<Judged>;
}
export interface Kit {
  cleanup(): Promise<void>;
  [tool: string]: unknown;
}
export const VERDICTS: readonly Verdict[];
export function createKit(): Kit;
