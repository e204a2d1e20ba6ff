/** What a check needs beyond what every target offers (kit/core/needs.ts decides whether it is met). */
export type Need =
  | 'secondary'
  | 'fixtures'
  | `fixtures:${'users' | 'grants' | 'quota' | 'attachments' | 'rate_limit'}`
  | `profile:${string}`
  | { notes: number }
  | { collections: number };
