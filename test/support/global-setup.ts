import { POSTGRES_URL, postgresAnswers, redisAnswers, REDIS_URL, requestedDialects } from './dialects';

/** Decides once whether the PostgreSQL tests run, and says so plainly when they do not. */
export default async function globalSetup(): Promise<void> {
  const dialects = requestedDialects();
  let active = dialects;
  if (dialects.includes('postgres') && !(await postgresAnswers())) {
    active = dialects.filter((d) => d !== 'postgres');
    process.stdout.write(
      `\n*** PostgreSQL tests SKIPPED: nothing answers at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')} ` +
        `(set TEST_POSTGRES_URL, or DIALECTS=sqlite to silence this) ***\n\n`,
    );
  }
  process.env.ACTIVE_DIALECTS = active.join(',');
  process.stdout.write(`Test dialects: ${active.join(', ') || 'none'}\n`);
  const redis = await redisAnswers();
  process.env.REDIS_ANSWERS = redis ? 'yes' : '';
  if (!redis) {
    process.stdout.write(
      `\n*** Redis tests SKIPPED: nothing answers at ${REDIS_URL} (set TEST_REDIS_URL) ***\n\n`,
    );
  }
}
