import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh cache directory, removed by the returned cleanup. */
export const tempCache = (): { dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-llm-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** Collects warnings instead of printing them. */
export const warnings = (): { list: string[]; onWarning: (m: string) => void } => {
  const list: string[] = [];
  return { list, onWarning: (m) => list.push(m) };
};
