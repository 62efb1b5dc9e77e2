// The command line: the same core and extraction as the extension, in Node.
//   npm run cli -- fingerprint FILE [--json]
//   npm run cli -- compare A B [--json]
//   npm run cli -- whatsnew OLD NEW [--json]
//   npm run cli -- scan EXPORT.json [--json]
//   npm run cli -- bench --corpus DIR [--json] [--whatsnew] [--variants [--no-terminals]] [--features wordShingle=1,gram=2,weight=log]
import { ALGORITHM, DEFAULT_MATCH_SETTINGS, FINGERPRINT_ONLY_DISTANCE, FINGERPRINT_OPTIONS, fingerprintWith, judgePair, passageSignature, SENSITIVITY, sketchOf, textHash, textStats, whatsNew, type MatchSettings, type SimhashOptions } from '../core';
import { benchWhatsNew, byReadSet, formatReadSetSize, formatWhatsNew, readSetSizes } from './bench-whatsnew';
import { READ_SET_OPTIONS, type ReadSetOptions } from '../core/read-set';
import { formatQuality, scoreCorpus, type PrintedDoc } from './bench-quality';
import { benchVariants, formatVariants } from './bench-variants';
import { corpusText, readCorpus } from './corpus';
import { CliError, loadDocument, readTextFile } from './documents';
import { printable, printableLines } from './printable';
import { clusterPages, parseExportPages } from './scan';

const USAGE = `usage: npm run cli -- <command>
  fingerprint FILE [--json]     fingerprint of a .html page (through Readability) or a .txt file
  compare A B [--json]          both fingerprints, their distance, and the extension's verdict
  whatsnew OLD NEW [--json]     which passages of NEW are not in OLD, and the share of NEW already read
  scan EXPORT.json [--json]     clusters of near-duplicates in an exported history (within 7 bits)
  bench --corpus DIR [--json]   quality benchmark on a corpus (docs.jsonl, pairs.jsonl, docs/)
        [--features k=v,...]    measure other feature choices (wordShingle, gram, weight, gramWeight)
        [--sensitivity strict|normal|loose]   the extension's settings to apply (default normal)
        [--simhash-only]        the fingerprint alone at distance ≤ 3, without the other layers
        [--whatsnew]            score whatsnew on every duplicate pair (both directions) instead
        [--read-set [S,BITS[,RB]]] with --whatsnew: score the hash-only read set (runs 1 in S, BITS bits a passage, RB a run) and its size
        [--variants]            instead, copies made from the corpus at run time (shorter previews, middle and
                                end stretches, the whole inside pages 2-4 × as long), judged against their source
        [--no-terminals]        with --variants: every text without sentence ends (as Thai, or unpunctuated text)
JSON for another program: npm run -s cli -- … --json (without -s, npm prints two lines of its own first)`;

/** The options of each command: a flag, one taking a value, or one whose value may be left out. */
const OPTIONS: Record<string, Record<string, 'flag' | 'value' | 'optional'>> = {
  fingerprint: { json: 'flag' },
  compare: { json: 'flag' },
  whatsnew: { json: 'flag' },
  scan: { json: 'flag' },
  bench: { json: 'flag', corpus: 'value', features: 'value', sensitivity: 'value', 'simhash-only': 'flag', whatsnew: 'flag', 'read-set': 'optional', variants: 'flag', 'no-terminals': 'flag' },
};

function parseArgs(command: string, argv: string[]): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const known = OPTIONS[command] ?? {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const name = a.slice(2);
    const kind = Object.hasOwn(known, name) ? known[name] : undefined;
    // An option misspelt is named, not taken as one that needs a value (which would swallow the file after it).
    if (!kind) throw new CliError(`${command} has no option ${a} (see: npm run cli -- help)`);
    const value = argv[i + 1];
    if (kind === 'flag' || (kind === 'optional' && (value === undefined || value.startsWith('--')))) flags.set(name, true);
    else {
      if (value === undefined || value.startsWith('--')) throw new CliError(`${a} needs a value`);
      flags.set(name, value);
      i++;
    }
  }
  return { positional, flags };
}

function parseFeatures(spec: string): SimhashOptions {
  const options: SimhashOptions = { ...FINGERPRINT_OPTIONS };
  for (const part of spec.split(',')) {
    const [key, value] = part.split('=');
    if (key === 'wordShingle' || key === 'gram') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 8) throw new CliError(`--features: ${key} must be an integer from 1 to 8`);
      options[key] = n;
    } else if (key === 'weight' || key === 'gramWeight') {
      const power = Number(value);
      if (value === 'tf' || value === 'log' || value === 'sqrt' || value === 'binary') options[key] = value;
      else if (value !== '' && Number.isFinite(power) && power >= 0 && power <= 4) options[key] = power;
      else throw new CliError(`--features: ${key} must be tf, log, sqrt, binary or a power from 0 to 4`);
    } else {
      throw new CliError(`--features: unknown "${part}" (wordShingle=N, gram=N, weight=W, gramWeight=W)`);
    }
  }
  return options;
}

async function fingerprintCommand(files: string[], json: boolean): Promise<void> {
  if (files.length !== 1) throw new CliError('fingerprint needs one FILE');
  const d = await loadDocument(files[0]);
  const out = { file: d.path, fp: d.fp, algorithm: ALGORITHM, chars: d.text.length, words: d.words, lang: d.lang, ...(d.skipped ? { skipped: d.skipped } : {}) };
  if (json) console.log(JSON.stringify(out));
  else {
    console.log(`${d.fp}  ${printable(d.path)}`);
    console.log(`algorithm ${ALGORITHM}, ${d.text.length} characters extracted (${d.words} word-equivalents), language ${printable(d.lang)}`);
    if (d.skipped) console.log(`no article found: ${d.skipped} — the extension would not check this page`);
  }
}

async function compareCommand(files: string[], json: boolean): Promise<void> {
  if (files.length !== 2) throw new CliError('compare needs two files: A B');
  const [a, b] = await Promise.all(files.map(loadDocument));
  const settings = DEFAULT_MATCH_SETTINGS;
  const v = judgePair(a, b, settings);
  const tooShort = a.words < settings.minWords || b.words < settings.minWords;
  const label = v.flagged ? `read before (${v.kind})` : tooShort ? 'not compared (too little prose)' : 'different';
  const pct = (x?: number) => (x === undefined ? '—' : `${Math.round(100 * x)}%`);
  if (json) {
    console.log(
      JSON.stringify({
        a: { file: a.path, fp: a.fp, words: a.words },
        b: { file: b.path, fp: b.fp, words: b.words },
        distance: v.distance,
        flagged: v.flagged,
        ...(v.kind ? { kind: v.kind } : {}),
        ...(v.resemblance !== undefined ? { resemblance: v.resemblance, containment: v.containment } : {}),
        ...(v.read !== undefined ? { read: v.read } : {}),
        settings,
      }),
    );
    return;
  }
  console.log(`${a.fp}  ${printable(a.path)}\n${b.fp}  ${printable(b.path)}`);
  console.log(`distance ${v.distance} of 64 bits (retrieved at ≤ ${settings.maxDistance}); resemblance ${pct(v.resemblance)}, containment ${pct(v.containment)}: ${label}`);
}

async function whatsNewCommand(files: string[], json: boolean): Promise<void> {
  if (files.length !== 2) throw new CliError('whatsnew needs two files: OLD NEW');
  const [before, after] = await Promise.all(files.map(loadDocument));
  // A page without an article has nothing to compare (the extension would not check it): said, not reported as all new.
  for (const d of [before, after]) if (d.skipped) throw new CliError(`${d.path}: no article found (${d.skipped}): whatsnew compares the articles of two pages`);
  // OLD's title was read with it, as the extension counts it (core's whatsNew).
  const r = whatsNew(before.text, after.text, before.title);
  const fresh = r.passages.filter((p) => p.isNew).map((p) => after.text.slice(p.start, p.end));
  if (json) {
    console.log(JSON.stringify({ read: r.read, newPassages: fresh }));
    return;
  }
  console.log(`${Math.round(100 * r.read)}% of ${printable(after.path)} was already in ${printable(before.path)}; ${fresh.length} of ${r.passages.length} passages are new${fresh.length ? ':' : '.'}`);
  for (const p of fresh) console.log(`\n+ ${printableLines(p)}`);
}

async function scanCommand(files: string[], json: boolean): Promise<void> {
  if (files.length !== 1) throw new CliError('scan needs one EXPORT.json');
  const pages = parseExportPages(await readTextFile(files[0]), files[0]);
  const clusters = clusterPages(pages, DEFAULT_MATCH_SETTINGS.maxDistance);
  if (json) {
    console.log(JSON.stringify({ pages: pages.length, clusters: clusters.map((c) => c.map(({ url, title, fp }) => ({ url, title, fp }))) }));
    return;
  }
  console.log(`${pages.length} pages, ${clusters.length} cluster${clusters.length === 1 ? '' : 's'} of near-duplicates`);
  clusters.forEach((c, i) => {
    console.log(`\n#${i + 1} (${c.length} pages)`);
    for (const p of c) console.log(`  ${p.fp}  ${printable(p.title) || '(untitled)'}\n                    ${printable(p.url)}`);
  });
}

async function benchCommand(flags: Map<string, string | true>, json: boolean): Promise<void> {
  const dir = flags.get('corpus');
  if (typeof dir !== 'string') throw new CliError('bench needs --corpus DIR');
  const featureSpec = flags.get('features');
  const options = typeof featureSpec === 'string' ? parseFeatures(featureSpec) : FINGERPRINT_OPTIONS;
  const sensitivity = flags.get('sensitivity') ?? 'normal';
  if (sensitivity !== 'strict' && sensitivity !== 'normal' && sensitivity !== 'loose') throw new CliError('--sensitivity must be strict, normal or loose');
  const simhashOnly = flags.has('simhash-only');
  if (flags.has('whatsnew')) return benchWhatsNewCommand(dir, json, flags.get('read-set'));
  if (flags.has('variants')) return benchVariantsCommand(dir, json, SENSITIVITY[sensitivity], sensitivity, flags.has('no-terminals'));
  if (flags.has('no-terminals')) throw new CliError('--no-terminals goes with --variants');
  const settings: MatchSettings = simhashOnly ? { ...SENSITIVITY[sensitivity], maxDistance: FINGERPRINT_ONLY_DISTANCE } : SENSITIVITY[sensitivity];
  const started = performance.now();
  const { docs, pairs } = await readCorpus(dir);
  const printed: PrintedDoc[] = [];
  let skipped = 0;
  for (const doc of docs) {
    const text = await corpusText(doc);
    if (!text) skipped++;
    const fp = fingerprintWith(text, options);
    const words = textStats(text).words;
    printed.push(simhashOnly ? { ...doc, fp, words } : { ...doc, fp, words, textHash: textHash(text), sketch: sketchOf(text), passages: passageSignature(text) });
  }
  const report = scoreCorpus(printed, pairs, settings);
  const seconds = (performance.now() - started) / 1000;
  const algorithm = (options === FINGERPRINT_OPTIONS ? ALGORITHM : `${ALGORITHM}+${featureSpec}`) + (simhashOnly ? ' (simhash only)' : '');
  if (json) {
    console.log(JSON.stringify({ corpus: dir, docs: docs.length, algorithm, settings: { sensitivity, ...settings, layers: simhashOnly ? ['simhash'] : ['text-hash', 'simhash', 'passage-index', 'sketch', 'passages'] }, ...report, seconds: Number(seconds.toFixed(2)) }));
  } else {
    console.log(
      formatQuality(
        report,
        `corpus ${dir}: ${docs.length} documents (${skipped} without an article), ${pairs.length} listed pairs\nalgorithm ${algorithm}, settings ${sensitivity} ${JSON.stringify(settings)}, ${seconds.toFixed(1)} s`,
      ),
    );
  }
}

/** `--read-set` alone: the extension's settings; `--read-set SAMPLE,BITS[,RUN_BITS]`: others, for measuring. */
function readSetOptions(spec: string | true): ReadSetOptions {
  if (spec === true) return READ_SET_OPTIONS;
  const [sample, bits, runBits = READ_SET_OPTIONS.runBits] = spec.split(',').map(Number);
  const isBits = (b: number, most: number) => Number.isInteger(b) && b >= 1 && b <= most;
  if (!Number.isInteger(sample) || sample < 0 || (sample & (sample - 1)) !== 0 || !isBits(bits, 15) || !isBits(runBits, 12)) throw new CliError('--read-set takes SAMPLE,BITS[,RUN_BITS]: a power of two (0: no runs), 1..15 bits for passages and 1..12 for runs');
  return { ...READ_SET_OPTIONS, runSample: sample, bits, runBits };
}

async function benchVariantsCommand(dir: string, json: boolean, settings: MatchSettings, sensitivity: string, noTerminals: boolean): Promise<void> {
  const started = performance.now();
  const { docs } = await readCorpus(dir);
  const texts = [];
  for (const doc of docs) texts.push({ ...doc, text: await corpusText(doc) });
  const report = benchVariants(texts, settings, { noTerminals });
  const seconds = (performance.now() - started) / 1000;
  if (json) console.log(JSON.stringify({ corpus: dir, sensitivity, ...report, seconds: Number(seconds.toFixed(2)) }));
  else console.log(formatVariants(report, `corpus ${dir}: copies of the fullest document of each of ${report.documents} groups (300 words or more)${noTerminals ? ', every text without sentence ends' : ''}; settings ${sensitivity}; ${seconds.toFixed(1)} s`));
}

async function benchWhatsNewCommand(dir: string, json: boolean, readSet: string | true | undefined): Promise<void> {
  const started = performance.now();
  const { docs, pairs } = await readCorpus(dir);
  const texts = new Map<string, string>();
  for (const doc of docs) {
    texts.set(doc.id, await corpusText(doc));
  }
  const langs = new Map(docs.map((d) => [d.id, d.lang]));
  const options = readSet === undefined ? undefined : readSetOptions(readSet);
  const report = benchWhatsNew(pairs, (id) => texts.get(id) ?? '', (id) => langs.get(id) ?? 'und', options ? byReadSet(options) : whatsNew);
  const sizes = options && readSetSizes([...texts.values()].map((text) => ({ text, words: textStats(text).words })), options);
  const seconds = (performance.now() - started) / 1000;
  const method = options ? `hash-only read set ${JSON.stringify(options)}` : 'whatsNew on the two texts';
  if (json) console.log(JSON.stringify({ corpus: dir, docs: docs.length, method, ...report, ...(sizes ? { readSetChars: sizes } : {}), seconds: Number(seconds.toFixed(2)) }));
  else {
    console.log(formatWhatsNew(report, `corpus ${dir}: ${docs.length} documents, ${pairs.length} listed pairs, ${method}, ${seconds.toFixed(1)} s`));
    if (sizes && options) console.log(`\n${formatReadSetSize(sizes, options)}`);
  }
}

export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === 'help' || command === '--help') {
      console.log(USAGE);
      return command === undefined ? 1 : 0;
    }
    if (!Object.hasOwn(OPTIONS, command)) throw new CliError(`unknown command "${command}" (see: npm run cli -- help)`);
    const { positional, flags } = parseArgs(command, rest);
    const json = flags.has('json');
    switch (command) {
      case 'fingerprint':
        await fingerprintCommand(positional, json);
        break;
      case 'compare':
        await compareCommand(positional, json);
        break;
      case 'whatsnew':
        await whatsNewCommand(positional, json);
        break;
      case 'scan':
        await scanCommand(positional, json);
        break;
      case 'bench':
        await benchCommand(flags, json);
        break;
      default:
        throw new CliError(`unknown command "${command}" (see: npm run cli -- help)`);
    }
    return 0;
  } catch (e) {
    // A message may name a file or quote it (a parser's "Unexpected token" shows the file's first bytes).
    if (e instanceof CliError) {
      console.error(`deja-read: ${printable(e.message)}`);
      return 2;
    }
    console.error(`deja-read: unexpected error: ${printable(e instanceof Error ? e.message : String(e))}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
