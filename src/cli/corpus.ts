// Reads an evaluation corpus in the format of design.md: docs.jsonl, pairs.jsonl, docs/<id>.(html|txt).
import { join } from 'node:path';
import { CliError, htmlToText, readTextFile } from './documents';

export interface CorpusDoc {
  id: string;
  path: string;
  lang: string;
  group: string;
  /** Where it came from, where docs.jsonl says: "<kind>:<id>" for a document made from another one of the corpus. */
  source?: string;
}

export interface CorpusPair {
  a: string;
  b: string;
  label: 'duplicate' | 'distinct';
  kind: string;
}

async function readJsonl(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    throw e instanceof CliError ? new CliError(`${e.message} (is this a corpus directory?)`) : e;
  }
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CliError(`${file}:${i + 1}: not valid JSON`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${file}:${i + 1}: not a JSON object`);
    return [value];
  });
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

export async function readCorpus(dir: string): Promise<{ docs: CorpusDoc[]; pairs: CorpusPair[] }> {
  const docs = (await readJsonl(join(dir, 'docs.jsonl'))).map((d, i) => {
    const r = d as Record<string, unknown>;
    if (!isString(r.id) || !isString(r.path) || !isString(r.group)) throw new CliError(`${join(dir, 'docs.jsonl')}:${i + 1}: needs "id", "path" and "group"`);
    return { id: r.id, path: join(dir, r.path), lang: isString(r.lang) ? r.lang : 'und', group: r.group, ...(isString(r.source) ? { source: r.source } : {}) };
  });
  const ids = new Set(docs.map((d) => d.id));
  const pairs = (await readJsonl(join(dir, 'pairs.jsonl'))).map((p, i): CorpusPair => {
    const r = p as Record<string, unknown>;
    const where = `${join(dir, 'pairs.jsonl')}:${i + 1}`;
    if (!isString(r.a) || !isString(r.b) || (r.label !== 'duplicate' && r.label !== 'distinct')) throw new CliError(`${where}: needs "a", "b" and a "label" of duplicate or distinct`);
    if (!ids.has(r.a) || !ids.has(r.b)) throw new CliError(`${where}: names a document not in docs.jsonl`);
    return { a: r.a, b: r.b, label: r.label, kind: isString(r.kind) ? r.kind : r.label };
  });
  return { docs, pairs };
}

/**
 * A listed document's text as the extension would see it: a page through Readability (with
 * `minWords`, as `htmlToText` takes it), plain text as it is.
 */
export async function corpusText(doc: CorpusDoc, minWords?: number): Promise<string> {
  // Read as every command reads a file: a binary or UTF-16 document is refused, not fingerprinted.
  let raw: string;
  try {
    raw = await readTextFile(doc.path);
  } catch (e) {
    throw e instanceof CliError ? new CliError(`${e.message} (listed in docs.jsonl)`) : e;
  }
  return /\.x?html?$/i.test(doc.path) ? (await htmlToText(raw, minWords)).text : raw;
}
