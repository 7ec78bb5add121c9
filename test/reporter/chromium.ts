import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import type { TestContext } from 'vitest';
import { findChromium } from './helpers.ts';
import { countNear, decodePng } from './png.ts';

/** What a screenshot of a report shows. */
export interface Shot {
  readonly png: string;
  /** Console errors, failed loads and crashes Chromium logged for the page. */
  readonly errors: readonly string[];
  readonly nonWhite: number;
  /** Pixels of the red dashed reference lines (#c4413b). */
  readonly refLine: number;
  /** Pixels of the blue points and first class colour (#2f6fb0). */
  readonly points: number;
}

/**
 * Opens an HTML file in Debian's headless Chromium and screenshots it. Without Chromium the test
 * is skipped, except under CI, where it fails: CI must install it.
 */
/** Where and how big: a URL hash the page reads (`#flagged&open=0`), the window size. */
export interface ShotOptions {
  readonly hash?: string;
  readonly width?: number;
  readonly height?: number;
}

const chromiumArgs = (dir: string): string[] => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-logging=stderr',
  '--v=0',
  `--user-data-dir=${join(dir, 'profile')}`,
];

/**
 * The page's DOM after its scripts ran (`--dump-dom`), at the given window size and hash; null
 * (and the test skipped) without Chromium, as for screenshots.
 */
export const chromiumDom = async (
  html: string,
  context: TestContext,
  options: ShotOptions = {},
): Promise<string | null> => {
  const chromium = findChromium();
  if (!chromium) {
    if (process.env.CI)
      throw new Error('chromium is not installed: run `apt-get install -y chromium` (Debian) in CI.');
    context.skip('chromium is not installed (apt-get install -y chromium)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-chromium-'));
  const result = await execa(
    chromium,
    [
      ...chromiumArgs(dir),
      '--dump-dom',
      `--window-size=${options.width ?? 1200},${options.height ?? 900}`,
      `${pathToFileURL(html).href}${options.hash ?? ''}`,
    ],
    { reject: false, timeout: 90_000 },
  );
  if (result.exitCode !== 0) throw new Error(`chromium failed (exit ${result.exitCode}):\n${result.stderr}`);
  return result.stdout;
};

export const chromiumScreenshot = async (
  html: string,
  context: TestContext,
  options: ShotOptions = {},
): Promise<Shot | null> => {
  const chromium = findChromium();
  if (!chromium) {
    if (process.env.CI)
      throw new Error('chromium is not installed: run `apt-get install -y chromium` (Debian) in CI.');
    context.skip('chromium is not installed (apt-get install -y chromium)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-chromium-'));
  const png = join(dir, 'report.png');
  const result = await execa(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-logging=stderr',
      '--v=0',
      `--user-data-dir=${join(dir, 'profile')}`,
      `--screenshot=${png}`,
      `--window-size=${options.width ?? 1200},${options.height ?? 900}`,
      `${pathToFileURL(html).href}${options.hash ?? ''}`,
    ],
    { reject: false, timeout: 90_000, all: true },
  );
  if (result.exitCode !== 0 || !statSync(png, { throwIfNoEntry: false })) {
    throw new Error(`chromium failed (exit ${result.exitCode}):\n${result.all}`);
  }
  // Page problems Chromium logs: console errors, blocked or failed loads, renderer crashes.
  const errors = (result.all ?? '')
    .split('\n')
    .filter((l) => /CONSOLE|Uncaught|ERR_FILE_NOT_FOUND|ERR_BLOCKED|net::ERR|crashed/i.test(l));
  const img = decodePng(png);
  let nonWhite = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const [r, g, b] = img.at(x, y);
      if (r < 240 || g < 240 || b < 240) nonWhite++;
    }
  }
  return {
    png,
    errors,
    nonWhite,
    refLine: countNear(img, [0xc4, 0x41, 0x3b], 30),
    points: countNear(img, [0x2f, 0x6f, 0xb0], 30),
  };
};
