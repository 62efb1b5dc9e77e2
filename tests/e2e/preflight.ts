// Runs before the end-to-end suite: a missing browser or build is one clear line, not a stack trace.
import { missingPrerequisites } from './browsers';

const problems = missingPrerequisites();
for (const p of problems) console.error(`e2e: ${p}`);
process.exit(problems.length ? 1 : 0);
