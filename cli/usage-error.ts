/** A problem with how the kit was started (bad flag, bad profile, unreachable target): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
