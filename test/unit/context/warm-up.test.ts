import { describe, expect, it } from 'vitest';
import { LANGUAGE_IDS } from '../../../src/syntax/index.js';
import { buildContext } from '../../../src/context/build-context.js';
import { rehearseBuilds } from '../../../src/context/warm-up.js';

describe('rehearseBuilds: the warm-up runs the whole build in every language', () => {
  it('follows the failing test to the module it imports and shows both, in each language', async () => {
    const shown = await rehearseBuilds(LANGUAGE_IDS, buildContext);
    expect([...shown.keys()]).toEqual(LANGUAGE_IDS);
    for (const language of LANGUAGE_IDS) {
      const files = shown.get(language)!;
      expect(files, language).toHaveLength(2);
      expect(
        files.some((p) => /test/.test(p)),
        language,
      ).toBe(true);
      expect(
        files.some((p) => /calc\.[a-z]+$/.test(p) && !/test/.test(p)),
        language,
      ).toBe(true);
    }
  });
});
