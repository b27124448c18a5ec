// Connecting to the Docker engine once, at the top of a command.
import type Dockerode from 'dockerode';
import { createDockerClient, pingEngine } from '../sandbox/index.js';

/** A Dockerode client for DOCKER_HOST (or the default socket), verified to answer. */
export async function connectEngine(signal?: AbortSignal): Promise<Dockerode> {
  const docker = createDockerClient(process.env);
  await pingEngine(docker, signal);
  return docker;
}
