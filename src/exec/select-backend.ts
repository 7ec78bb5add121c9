import type { Candidate } from '../candidates/index.ts';
import type { Backend } from './backend.ts';
import { commandBackend } from './command/index.ts';
import { inProcessBackend } from './in-process.ts';
import { jsSandboxBackend } from './js/index.ts';
import { pythonBackend } from './python/index.ts';

/** Which backend runs a candidate. Backends group their candidates to share pools. */
export const backendFor = (candidate: Candidate): Backend => {
  switch (candidate.kind) {
    case 'function':
      return inProcessBackend;
    case 'source':
      return candidate.language === 'python' ? pythonBackend : jsSandboxBackend;
    case 'command':
      return commandBackend;
  }
};
