// The timeouts part of a server's description, from the model config.
import type { ModelConfig } from '../config/schema.js';
import type { ServerInfo } from './describe-failure.js';

/** The configured timeouts in seconds. */
export function timeoutsOf(cfg: ModelConfig): ServerInfo['timeouts'] {
  return {
    connect: cfg.connect_timeout,
    firstToken: cfg.first_token_timeout,
    idle: cfg.idle_timeout,
    total: cfg.timeout,
  };
}

/** How long a check() may take: enough to connect and get a listing, never more than a first token. */
export function checkTimeoutMs(cfg: ModelConfig): number {
  return Math.min(cfg.first_token_timeout, cfg.connect_timeout + 10) * 1000;
}
