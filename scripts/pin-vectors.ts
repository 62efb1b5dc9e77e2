// Writes tests/fixtures/vectors.json and digests.json from the current core. Run only together with a
// change of ALGORITHM or of the passage signature's or the sketch's version: pinned values change
// only when a version does.
import { writeFileSync } from 'node:fs';
import { ALGORITHM, digestArticle, encodePassages, fingerprint, passageSignature } from '../src/core';
import { VECTORS } from '../tests/fixtures/vectors';

const fingerprints = Object.fromEntries(Object.entries(VECTORS).map(([name, v]) => [name, fingerprint(v.text())]));
const passages = Object.fromEntries(Object.entries(VECTORS).map(([name, v]) => [name, encodePassages(passageSignature(v.text()))]));
writeFileSync(new URL('../tests/fixtures/vectors.json', import.meta.url), `${JSON.stringify({ algorithm: ALGORITHM, fingerprints, passages }, null, 2)}\n`);
// Whole digests (text hash, sketch, counts too): what a stored record keeps, checked in Node only.
const digests = Object.fromEntries(Object.entries(VECTORS).map(([name, v]) => [name, digestArticle(v.text())]));
writeFileSync(new URL('../tests/fixtures/digests.json', import.meta.url), `${JSON.stringify({ algorithm: ALGORITHM, digests }, null, 2)}\n`);
console.log(`pinned ${Object.keys(fingerprints).length} vectors and digests for ${ALGORITHM}`);
