/**
 * Python candidates: long-lived `python3` workers running the `python/crosscheck_worker` package.
 * A warmed parent forks a fresh, confined process per candidate; this folder starts the workers,
 * checks the interpreter and speaks the JSON-lines protocol of `docs/protocol.md` with them.
 * @packageDocumentation
 */
export { closePythonWorkers, pythonBackend } from './backend.ts';
export { configurePython, type PythonOptions } from './config.ts';
export { harnessPath } from './harness-path.ts';
export { checkPython, MIN_PYTHON, type PythonRuntime } from './interpreter.ts';
