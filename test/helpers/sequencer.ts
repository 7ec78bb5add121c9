import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONGEST_FILES } from '../suites.ts';

/**
 * Vitest's order, but the files of LONGEST_FILES (test/suites.ts) first in their project. Without
 * a results cache, which a fresh clone or a CI machine does not have, Vitest starts the larger
 * files first; the longest-running heavy file is a small one, and starting it last made it the
 * whole suite's tail (537 s of it alone after every other file had finished).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST_FILES.findIndex((f) => spec.moduleId.endsWith(f));
      return at < 0 ? LONGEST_FILES.length : at;
    };
    // Project by project, in the order Vitest gave them (it runs projects in that order).
    const projects = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const group = projects.get(spec.project.name) ?? [];
      group.push(spec);
      projects.set(spec.project.name, group);
    }
    return [...projects.values()].flatMap((group) => [...group].sort((a, b) => rank(a) - rank(b)));
  }
}
