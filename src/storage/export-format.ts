// The exported history document (design.md, "Export format").
import { ALGORITHM, FINGERPRINT_OPTIONS } from '../core';
import type { PageRecord } from './schema';

export const EXPORT_FORMAT = 'deja-read-history';
export const EXPORT_VERSION = 1;

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  algorithm: { name: string; options: Record<string, unknown> };
  exportedAt: string;
  pages: PageRecord[];
}

export function buildExport(pages: PageRecord[], now: Date): ExportDocument {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    algorithm: { name: ALGORITHM, options: { ...FINGERPRINT_OPTIONS } },
    exportedAt: now.toISOString(),
    pages,
  };
}
