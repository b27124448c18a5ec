// Dependency setup runs repository code with a network, so every size it can grow has a ceiling
// the user sets: each place it writes (/workspace, /tmp, the dependency directories) is a tmpfs of
// [env] setup_write_size, the engine keeps no log of its output, and at most [env] max_image_size
// bytes of files reach the env image (a sparse file counts whole). Exceeding one fails setup with
// SETUP_FAILED and a reason, and leaves nothing behind: no container, volume, network or image.
// The control: a setup within the ceilings builds its env image, and the run goes on.
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, outcomeOf } from './support/scene.js';

const docker = new Docker();
const { scene } = attackFileHooks();
const madeImages = new Set<string>();
afterAll(async () => {
  for (const id of madeImages)
    await docker
      .getImage(id)
      .remove({ force: true })
      .catch(() => undefined);
});

/** What the dependency setup of the run with process `pid` left on the engine (its containers, volumes and networks). */
async function setupLeftovers(pid: number | undefined): Promise<string[]> {
  const filters = { label: ['hammer-box.purpose=env-setup', `hammer-box.owner-pid=${pid ?? -1}`] };
  const [containers, volumes, networks] = await Promise.all([
    docker.listContainers({ all: true, filters }),
    docker.listVolumes({ filters }),
    docker.listNetworks({ filters }),
  ]);
  return [
    ...containers.map((c) => `container ${c.Names[0] ?? c.Id}`),
    ...(volumes.Volumes ?? []).map((v) => `volume ${v.Name}`),
    ...networks.map((n) => `network ${n.Name}`),
  ];
}

/** A setup command as a file of the repository (a configured command keys the env image by the whole tree). */
const SITE = `site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')\n`;
const setupScene = (script: string, env: string) =>
  scene({
    files: { 'hb-setup.sh': `${SITE}${script}` },
    answers: [{ answer: answerWith(FIX_PATCH) }],
    config: `[env]\nsetup_command = "sh hb-setup.sh"\n${env}`,
  });

describe('setup ceilings', () => {
  it('a setup that fills /tmp, /workspace and the venv stops at [env] setup_write_size, and leaves nothing', async () => {
    const s = await setupScene(
      `for d in /tmp /workspace "$VIRTUAL_ENV"; do
  if dd if=/dev/zero of="$d/hb-fill" bs=1M count=96; then echo "HB_FILL $d wrote"; else echo "HB_FILL $d refused"; fi
  rm -f "$d/hb-fill"
done
exit 1
`,
      'setup_write_size = "32m"\n',
    );
    const cli = s.start();
    const out = await outcomeOf(s, await cli.done);
    await attack(
      'setup writes 96 MB into each of /tmp, /workspace and the venv (setup_write_size = 32m)',
      'each write stops at 32 MB; SETUP_FAILED names the space and the key; nothing is left',
      async () => {
        expect(out.result.code, out.result.stderr.slice(-2000)).toBe(3);
        const err = out.result.stderr;
        for (const d of ['/tmp', '/workspace', '/opt/hammer/venv']) expect(err).toContain(`HB_FILL ${d} refused`);
        expect(err).not.toMatch(/HB_FILL \S+ wrote/);
        expect(err).toContain('SETUP_FAILED');
        expect(err).toContain('no space left where setup writes');
        expect(err).toContain('[env] setup_write_size');
        expect(await setupLeftovers(cli.child.pid)).toEqual([]);
        await expectCanarySafe(s, out, 'not-run');
        return 'every place refused past 32 MB; SETUP_FAILED: no space left where setup writes; nothing left';
      },
    );
  });

  it('a setup whose dependency directories hold more than [env] max_image_size (a sparse 3 GB file) makes no image', async () => {
    const s = await setupScene('truncate -s 3G "$site/hb_sparse.bin"\necho hb-ok > "$site/hb_marker.py"\n', '');
    const cli = s.start();
    const out = await outcomeOf(s, await cli.done);
    await attack(
      'setup leaves a sparse 3 GB file in site-packages (max_image_size = 2g)',
      'SETUP_FAILED before the file is carried; no env image, nothing left',
      async () => {
        expect(out.result.code, out.result.stderr.slice(-2000)).toBe(3);
        expect(out.result.stderr).toContain('SETUP_FAILED');
        expect(out.result.stderr).toContain('([env] max_image_size)');
        expect(out.state.image?.env ?? null).toBeNull();
        const tags = (await docker.listImages({ filters: { reference: ['hammer-box/python-env'] } })).flatMap(
          (i) => i.RepoTags ?? [],
        );
        expect(tags.filter((t) => out.result.stderr.includes(t))).toEqual([]);
        expect(await setupLeftovers(cli.child.pid)).toEqual([]);
        await expectCanarySafe(s, out, 'not-run');
        return `SETUP_FAILED: ${(out.result.stderr.match(/more than \d+ bytes of files/) ?? [''])[0]}; nothing left`;
      },
    );
  });

  it('the engine keeps no log of what setup prints, and a setup within the ceilings builds its env image (the control)', async () => {
    // 8 MB of output in lines, then a small package: the engine's log would have held all of it
    const s = await setupScene(
      'head -c 8388608 /dev/zero | tr "\\0" "x" | fold -w 4096\necho "X = 1" > "$site/hb_marker.py"\n',
      '',
    );
    const cli = s.start();
    let seen: { setup: string | undefined; keeper: string | undefined; proxy: string | undefined } | null = null;
    for (let i = 0; i < 600 && seen === null; i++) {
      const list = await docker.listContainers({
        all: true,
        filters: { label: ['hammer-box.purpose=env-setup', `hammer-box.owner-pid=${cli.child.pid ?? -1}`] },
      });
      const byName = (suffix: string) => list.find((c) => c.Names.some((n) => n.endsWith(suffix)));
      const setup = list.find((c) => c.Names.every((n) => !/-(proxy|keeper)$/.test(n)));
      if (setup) {
        const logOf = async (id: string | undefined) =>
          id === undefined
            ? undefined
            : (
                (await docker.getContainer(id).inspect()) as {
                  HostConfig: { LogConfig: { Type: string; Config: Record<string, string> } };
                }
              ).HostConfig.LogConfig;
        const [sl, kl, pl] = await Promise.all([
          logOf(setup.Id),
          logOf(byName('-keeper')?.Id),
          logOf(byName('-proxy')?.Id),
        ]);
        seen = {
          setup: sl?.Type,
          keeper: kl?.Type,
          proxy: pl ? `${pl.Type} ${pl.Config['max-size'] ?? ''}` : undefined,
        };
      } else await new Promise((r) => setTimeout(r, 100));
    }
    const out = await outcomeOf(s, await cli.done);
    if (out.state.image?.env) madeImages.add(out.state.image.env.id);
    await attack(
      'setup prints 8 MB; a setup within the ceilings',
      'no engine log for setup (proxy log capped at 1 MiB); the control builds its env image and the fix lands',
      async () => {
        expect(seen).toEqual({ setup: 'none', keeper: 'none', proxy: 'json-file 1m' });
        expect(out.state.status, out.result.stderr.slice(-2000)).toBe('stable');
        expect(out.state.image?.env).not.toBeNull();
        expect(await setupLeftovers(cli.child.pid)).toEqual([]);
        await expectCanarySafe(s, out);
        return `log drivers: setup ${seen!.setup}, proxy ${seen!.proxy}; env image ${out.state.image?.env?.ref}; stable`;
      },
    );
  }, 600_000);
});
