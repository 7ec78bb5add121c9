import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * What a reader of the package's own documents needs to find inside the repository. The README,
 * CONTRIBUTING.md, everything under docs/ and examples/, and the shipped code's messages and
 * TSDoc must stand on their own: a user has
 * the repository (or the npm package), not the folders beside the maintainers' checkout, not
 * their issue tracker. `findProblems` lists every line that breaks that, as `file:line`.
 */

/** One broken line: where, which rule, and the text that broke it. */
export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly text: string;
}

/**
 * What users read: the front page, the contributor guide, docs/ and examples/, and the shipped
 * code, whose messages they see and whose TSDoc their editor shows.
 */
const DOCUMENT_ROOTS = [
  'README.md',
  'CONTRIBUTING.md',
  'docs',
  'examples',
  'src',
  'matchers',
  'reporter',
  'python',
] as const;

/** Installed or generated folders: not written by us, or rewritten by every run. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.crosscheck', 'dist', 'coverage', '.git']);

/** Text files only; recorded model replies (llm-cache JSON) are text too and are scanned. */
const TEXT_FILE = /\.(md|ts|mts|cts|js|mjs|cjs|json|jsonl|py|ya?ml|txt|html)$/;

/**
 * Things a user of the package does not have: the maintainers' shared folder and what lives in
 * it (the design notes, the papers, the test data and the variable that locates it), and
 * absolute paths of one machine. CONTRIBUTING.md may name the test data: it is written for
 * contributors, who have it.
 */
const OUTSIDE_POINTERS: readonly {
  readonly rule: string;
  readonly pattern: RegExp;
  readonly contributors?: true;
}[] = [
  { rule: 'the shared folder beside the checkout', pattern: /\.\.\/shared\b/, contributors: true },
  { rule: 'the shared folder beside the checkout', pattern: /\bshared folder\b/i },
  {
    rule: 'a design file outside the repository',
    pattern: /\bDESIGN\.md\b|\bSTYLE\.md\b|\bdesign\/[\w-]+\.md\b/,
  },
  { rule: 'the papers outside the repository', pattern: /\.\.\/papers\b|\bpapers\/[\w-]+\.md\b/ },
  { rule: 'the test data variable (contributors only)', pattern: /\bCROSSCHECK_DATA\b/, contributors: true },
  {
    rule: 'an absolute path of one machine',
    pattern: /(^|[\s`'"(=])\/(work|home|root|Users|tmp\/bash_jobs)\/\w/,
  },
];

/** Issue and pull-request numbers, and work said to be in progress: true once, stale later. */
const TRACKER_REFERENCES: readonly { readonly rule: string; readonly pattern: RegExp }[] = [
  { rule: 'an issue number', pattern: /\b(issues?|pull requests?|PRs?|tickets?|bugs?)\s+(#|no\.\s*)?\d+/i },
  // `#12` standing alone; a candidate label such as `gpt-4o#0` has a name before the `#`.
  { rule: 'an issue number', pattern: /(^|[\s([{,;:])#\d+\b/ },
  {
    rule: 'work said to be in progress',
    pattern: /\bunder way\b|\bin progress\b|\bnot yet (done|merged)\b/i,
  },
];

/**
 * A user's project beside a crosscheck clone installs `../crosscheck/<tarball>`, as the guides
 * lay it out; that path leaves the repository on purpose.
 */
const CLONE_BESIDE = /^\.\.\/crosscheck$/;

const posix = (path: string) => path.split(sep).join('/');

/** Every scanned document, relative to the root. */
export const documentsOf = (root: string): string[] => {
  const walk = (path: string): string[] => {
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return TEXT_FILE.test(path) ? [posix(relative(root, path))] : [];
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => !SKIPPED_FOLDERS.has(e.name))
      .flatMap((e) => walk(join(path, e.name)));
  };
  return DOCUMENT_ROOTS.flatMap((entry) => walk(join(root, entry)));
};

/** Whether `target` (an absolute path) lies inside the repository. */
const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || resolve(rel) === rel);
};

/**
 * Relative paths that climb out of the repository from the file's own folder (an import, a path
 * in prose). Link targets are left to `linkProblem`, which says more about them.
 */
const escapingPaths = (root: string, file: string, line: string): string[] =>
  [...line.replace(/\]\([^)]*\)/g, ']()').matchAll(/(?:^|[^\w./-])((?:\.\.\/)+[\w.-]+)/g)]
    .map((m) => m[1] as string)
    .filter((path) => !CLONE_BESIDE.test(path))
    .filter((path) => !inside(root, resolve(root, dirname(file), path)));

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings (repeats get -1, -2 as GitHub numbers them). */
const anchorsOf = (text: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1] as string);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
};

/** Markdown links `[text](target)` and `<img src>`-free inline targets of one line. */
const linkTargets = (line: string): string[] =>
  [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);

/** A relative link's problem (a missing file, a file outside, a missing heading), or null. */
const linkProblem = (root: string, file: string, target: string): string | null => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: and the like
  const [path = '', anchor] = target.split('#', 2);
  const absolute = path === '' ? join(root, file) : resolve(root, dirname(file), decodeURI(path));
  if (!inside(root, absolute)) return `leaves the repository: ${target}`;
  if (!existsSync(absolute)) return `no such file: ${target}`;
  if (anchor && absolute.endsWith('.md') && !anchorsOf(readFileSync(absolute, 'utf8')).has(anchor)) {
    return `no heading #${anchor} in ${posix(relative(root, absolute))}`;
  }
  return null;
};

/** Every problem of every document under `root`, in file and line order. */
export const findProblems = (root: string): Problem[] =>
  documentsOf(root).flatMap((file) => {
    const forContributors = file === 'CONTRIBUTING.md';
    return readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, index): Problem[] => {
        const at = (rule: string): Problem => ({ file, line: index + 1, rule, text: text.trim() });
        const rules = [
          ...OUTSIDE_POINTERS.filter((p) => !(forContributors && p.contributors)),
          ...TRACKER_REFERENCES,
        ];
        return [
          ...rules.filter((r) => r.pattern.test(text)).map((r) => at(r.rule)),
          ...(forContributors ? [] : escapingPaths(root, file, text)).map((p) =>
            at(`a path out of the repository (${p})`),
          ),
          ...(file.endsWith('.md') ? linkTargets(text) : [])
            .map((t) => linkProblem(root, file, t))
            .filter((p): p is string => p !== null)
            .map((p) => at(`a broken link (${p})`)),
        ];
      });
  });

/** One line per problem, `file:line  rule  text`, for a failure message a person can act on. */
export const describeProblems = (problems: readonly Problem[]): string =>
  problems.map((p) => `${p.file}:${p.line}  ${p.rule}\n    ${p.text.slice(0, 160)}`).join('\n');
