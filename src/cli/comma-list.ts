/**
 * A comma-separated option (`--models a,b`) as its names, trimmed, empty ones dropped; undefined
 * when the option is absent (not a string). @internal
 */
export const commaList = (raw: unknown): string[] | undefined =>
  typeof raw === 'string'
    ? raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : undefined;
