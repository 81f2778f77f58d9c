// Package pycheck is the bridge to check modules in the Python implementation's
// format (checks/static.py, checks/behavior.py, checks/negatives.py). One
// long-lived CPython worker per evaluator process imports the modules and
// answers JSON-line requests; the worker's code (worker.py) is embedded in the
// binary. Python checks run arbitrary code, so the CLI only builds a Bridge when
// --allow-python-checks is given; the worker runs in the evaluator's jail
// (sandbox.Jail.Wrap: under bubblewrap it sees only the system trees, the
// interpreter's trees, PYTHONPATH and the corpus roots, read-only) with the
// sandbox's allowlisted environment in an empty temporary directory, every
// call has a time limit, and a crashed or hung worker is stopped and
// restarted, its call reported as a case error.
package pycheck
