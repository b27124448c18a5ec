// The order test files run in: vitest's own (group order, project, then failed and slow first),
// except that the files named in RUN_LAST go after every other file of their project.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that must run after every other file of their project (the daemon restart stops the engine). */
export const RUN_LAST = ['test/security/daemon-restart.test.ts'];

/** vitest's default order, with the RUN_LAST files moved behind the rest of their project. */
export class RunLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification): boolean => RUN_LAST.some((p) => f.moduleId.endsWith(`/${p}`));
    // stable: only a RUN_LAST file moves, behind the files of the same project
    const out: TestSpecification[] = [];
    for (const f of sorted) {
      if (last(f)) continue;
      out.push(f);
    }
    for (const f of sorted.filter(last)) {
      const afterOwnProject = out.map((g) => g.project.name).lastIndexOf(f.project.name);
      // alone in its project: it keeps its place among the other projects
      out.splice(afterOwnProject === -1 ? Math.min(sorted.indexOf(f), out.length) : afterOwnProject + 1, 0, f);
    }
    return out;
  }
}
