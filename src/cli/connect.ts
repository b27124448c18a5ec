// Connecting to the Docker engine once, at the top of a command.
import type Dockerode from 'dockerode';
import { connectDocker } from '../sandbox/index.js';

/** A Dockerode client for the engine the docker CLI would use (DOCKER_HOST, its context, a known socket), verified to answer. */
export async function connectEngine(signal?: AbortSignal): Promise<Dockerode> {
  return (await connectDocker(process.env, signal)).docker;
}
