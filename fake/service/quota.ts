import type { UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { DomainError } from './errors.js';

const UPGRADE_URL = 'https://notes.example/upgrade';

/** The first day of next month (UTC): when the fake's quota period resets. */
function resetTime(now: number): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
}

/** Refuses a note create over the user's quota with the documented quota_exceeded body (part 7). */
export function checkNoteQuota(ctx: ServiceContext, user: UserRecord): void {
  const quota = user.quota;
  if (!quota || quota.used < quota.limit) return;
  const error: Record<string, unknown> = {
    type: 'quota_exceeded',
    message: `Note limit of ${quota.limit} reached for the ${quota.plan} plan`,
    details: {
      current_plan: quota.plan,
      free_used: quota.used,
      free_limit: quota.limit,
      used: quota.used,
      limit: quota.limit,
      reset_time: resetTime(ctx.clock.now()),
    },
    upgrade_info: { message: 'Upgrade your plan to create more notes', upgrade_url: UPGRADE_URL },
  };
  throw new DomainError('quota_exceeded', error.message as string, { error });
}

export function countNoteCreate(user: UserRecord): void {
  if (user.quota) user.quota.used++;
}
