import { unavailableBackend } from '../unavailable.ts';

/** The sandboxed JS/TS runner (worker_threads + vm). Being built; see src/exec/js/pool.ts. */
export const jsSandboxBackend = unavailableBackend('javascript sandbox');
