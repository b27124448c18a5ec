// Integration suites need a Docker engine. Fail loudly, never skip: a skipped Docker suite is not a pass.
import Docker from 'dockerode';

export default async function setup(): Promise<void> {
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (err) {
    throw new Error(
      `integration tests need a Docker engine and none answers (${(err as Error).message}). Run 'make engine' first.`,
    );
  }
}
