/**
 * Python candidates: long-lived `python3` workers running the `python/crosscheck_worker` package.
 * @packageDocumentation
 */
export { closePythonWorkers, pythonBackend } from './backend.ts';
export { configurePython, type PythonOptions } from './config.ts';
export { harnessPath } from './harness-path.ts';
export { checkPython, MIN_PYTHON, type PythonRuntime } from './interpreter.ts';
