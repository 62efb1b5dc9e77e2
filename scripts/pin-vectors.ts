// Writes tests/fixtures/vectors.json from the current core. Run only together with a change of
// ALGORITHM: pinned fingerprints change only when the algorithm version does.
import { writeFileSync } from 'node:fs';
import { ALGORITHM, fingerprint } from '../src/core';
import { VECTORS } from '../tests/fixtures/vectors';

const fingerprints = Object.fromEntries(Object.entries(VECTORS).map(([name, v]) => [name, fingerprint(v.text())]));
writeFileSync(new URL('../tests/fixtures/vectors.json', import.meta.url), `${JSON.stringify({ algorithm: ALGORITHM, fingerprints }, null, 2)}\n`);
console.log(`pinned ${Object.keys(fingerprints).length} vectors for ${ALGORITHM}`);
