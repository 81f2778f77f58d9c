# EmbedEval-Go Python check worker (part of the Go binary; see docs/PYTHON-CHECKS.md).
#
# It imports the Python implementation's check modules (checks/static.py,
# checks/behavior.py, checks/negatives.py) and answers one JSON request per line
# on stdin with one JSON response per line on its private protocol descriptor.
# Anything a check module prints goes to stderr, never into the protocol.
import ast
import dataclasses
import importlib.util
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True

_proto = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
os.dup2(2, 1)
sys.stdout = sys.stderr

_modules = {}  # path -> (stamp, module)


class CheckError(Exception):
    """A problem with a case's module, reported with its line."""

    def __init__(self, kind, message, line=0):
        super().__init__(message)
        self.kind, self.message, self.line = kind, message, line


def _stamp(path):
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _line_in(path, tb):
    real = os.path.realpath(path)
    line = 0
    for frame in traceback.extract_tb(tb):
        if os.path.realpath(frame.filename) == real:
            line = frame.lineno or 0
    return line


def _raised(kind, path, exc, what):
    if isinstance(exc, SyntaxError) and exc.filename and os.path.realpath(exc.filename) == os.path.realpath(path):
        return CheckError(kind, "%s: SyntaxError: %s" % (what, exc.msg), exc.lineno or 0)
    message = "%s: %s: %s" % (what, type(exc).__name__, exc)
    if isinstance(exc, ImportError) and (exc.name or "").startswith("embedeval"):
        message += " (the module imports the Python implementation's package: put its src/ on PYTHONPATH, install it, or pick its interpreter with --python)"
    return CheckError(kind, message, _line_in(path, exc.__traceback__))


def _load(path):
    stamp = _stamp(path)
    cached = _modules.get(path)
    if cached and cached[0] == stamp:
        return cached[1]
    stem = os.path.splitext(os.path.basename(path))[0]
    name = "embedeval_case_%x_%s" % (abs(hash(os.path.realpath(path))), stem)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001 - any failure is the module's
        sys.modules.pop(name, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _raised("load", path, exc, "import failed") from None
    _modules[path] = (stamp, module)
    return module


def _run_checks_func(path):
    fn = getattr(_load(path), "run_checks", None)
    if not callable(fn):
        raise CheckError("load", "no run_checks function defined (want: def run_checks(generated_code): ...)")
    return fn


def _record(i, item):
    if hasattr(item, "model_dump"):
        fields = item.model_dump()
    elif isinstance(item, dict):
        fields = dict(item)
    elif hasattr(item, "dict") and callable(item.dict):
        fields = item.dict()
    elif dataclasses.is_dataclass(item) and not isinstance(item, type):
        fields = dataclasses.asdict(item)
    else:
        raise CheckError("shape", "run_checks returned a list whose item %d is a %s, want a CheckDetail" % (i, type(item).__name__))
    out = {}
    for key, value in fields.items():
        if not isinstance(key, str):
            raise CheckError("shape", "run_checks returned a list whose item %d has a non-string key %r" % (i, key))
        if value is None or isinstance(value, (str, bool, int, float)):
            out[key] = value
        else:
            out[key] = {"unsupported_type": type(value).__name__}
    return out


def op_load_checks(req):
    fn = _run_checks_func(req["path"])
    code = getattr(fn, "__code__", None)
    if code is not None:
        required = code.co_argcount - len(fn.__defaults__ or ())
        if code.co_argcount < 1 or required > 1:
            raise CheckError("load", "run_checks must take exactly one parameter (the code), it takes %d" % code.co_argcount, code.co_firstlineno)
    return {}


def op_run_checks(req):
    path = req["path"]
    fn = _run_checks_func(path)
    try:
        value = fn(req["code"])
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _raised("runtime", path, exc, "run_checks raised") from None
    if not isinstance(value, (list, tuple)):
        raise CheckError("shape", "run_checks returned %s, want a list of CheckDetail" % type(value).__name__, getattr(getattr(fn, "__code__", None), "co_firstlineno", 0))
    return {"details": [_record(i, item) for i, item in enumerate(value)]}


def _negatives(path):
    module = _load(path)
    if not hasattr(module, "NEGATIVES"):
        raise CheckError("load", "no NEGATIVES list defined")
    negatives = module.NEGATIVES
    if not isinstance(negatives, (list, tuple)):
        raise CheckError("load", "NEGATIVES is a %s, want a list of dicts" % type(negatives).__name__)
    return negatives


def _label_list(entry, key):
    value = entry.get(key)
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(x, str) and x for x in value):
        raise ValueError("%s must be a list of check names" % key)
    return list(value)


def op_load_negatives(req):
    out = []
    for i, entry in enumerate(_negatives(req["path"])):
        line = 0
        if isinstance(entry, dict):
            line = getattr(getattr(entry.get("mutation"), "__code__", None), "co_firstlineno", 0)
        try:
            if not isinstance(entry, dict):
                raise ValueError("is a %s, want a dict" % type(entry).__name__)
            name = entry.get("name")
            if not isinstance(name, str) or not name:
                raise ValueError("name must be a non-empty string")
            if not callable(entry.get("mutation")):
                raise ValueError("negative %r has no callable mutation" % name)
            item = {"name": name, "line": line,
                    "must_fail": _label_list(entry, "must_fail"), "should_fail": _label_list(entry, "should_fail")}
            for key in ("description", "bug_description", "factor_id"):
                value = entry.get(key)
                if value is not None and not isinstance(value, str):
                    raise ValueError("%s must be a string" % key)
                item[key] = value or ""
        except ValueError as exc:
            raise CheckError("negatives", "NEGATIVES[%d]: %s" % (i, exc), line) from None
        out.append(item)
    return {"negatives": out}


def op_apply(req):
    path, name = req["path"], req["name"]
    for entry in _negatives(path):
        if isinstance(entry, dict) and entry.get("name") == name:
            mutation = entry["mutation"]
            line = getattr(getattr(mutation, "__code__", None), "co_firstlineno", 0)
            try:
                mutant = mutation(req["code"])
            except BaseException as exc:  # noqa: BLE001
                if isinstance(exc, KeyboardInterrupt):
                    raise
                err = _raised("negatives", path, exc, "negative %r: mutation raised" % name)
                err.line = err.line or line
                raise err from None
            if not isinstance(mutant, str):
                raise CheckError("negatives", "negative %r: mutation returned %s, want a string" % (name, type(mutant).__name__), line)
            return {"code": mutant}
    raise CheckError("negatives", "no negative named %r" % name)


def _error_fields(exc):
    return {"kind": exc.kind, "message": exc.message, "line": exc.line}


def op_mutate_all(req):
    """L4 in one call: each plan's negative applied, its modules run on the mutant."""
    path, code, out = req["path"], req["code"], []
    for plan in req["plans"]:
        item = {}
        out.append(item)
        try:
            mutant = op_apply({"path": path, "name": plan["negative"], "code": code})["code"]
        except CheckError as exc:
            item["mutation_error"] = _error_fields(exc)
            continue
        if mutant == code:
            item["unchanged"] = True
            continue
        details, sizes = [], []
        for module in plan["modules"]:
            try:
                got = op_run_checks({"path": module, "code": mutant})["details"]
            except CheckError as exc:
                item["module_error"] = dict(_error_fields(exc), path=module)
                break
            details.extend(got)
            sizes.append(len(got))
        item["details"] = details
        item["sizes"] = sizes  # records per module: names are unique within one
    return {"outcomes": out}


_RAW_METHODS = {"find", "rfind", "index", "rindex", "count"}


def op_audit(req):
    """Raw substring tests on the code parameter, as the seeds' scope audit finds them."""
    path = req["path"]
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (SyntaxError, ValueError, OSError):
        return {"findings": []}
    code_name = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "run_checks" and node.args.args:
            code_name = node.args.args[0].arg
    findings = []
    if code_name is None:
        return {"findings": findings}

    def is_code(expr):
        return isinstance(expr, ast.Name) and expr.id == code_name

    def visit(node, scoped):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args.args
            scoped = bool(args) and args[0].arg == code_name
        if scoped:
            if isinstance(node, ast.Compare):
                left = node.left
                for op, right in zip(node.ops, node.comparators):
                    if isinstance(op, (ast.In, ast.NotIn)) and is_code(right):
                        findings.append({"line": node.lineno, "col": node.col_offset + 1,
                                         "op": "in" if isinstance(op, ast.In) else "not in"})
                    left = right
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RAW_METHODS and is_code(node.func.value):
                findings.append({"line": node.lineno, "col": node.col_offset + 1, "op": node.func.attr})
        for child in ast.iter_child_nodes(node):
            visit(child, scoped)

    visit(tree, False)
    return {"findings": findings, "code_name": code_name}


def op_probe(req):
    """Whether the Python implementation's package is importable, and from where."""
    out = {"python": sys.version.split()[0], "executable": sys.executable}
    try:
        models = importlib.import_module("embedeval.models")
        importlib.import_module("embedeval.check_utils")
        out["embedeval"] = os.path.dirname(os.path.abspath(models.__file__))
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        out["embedeval_error"] = "%s: %s" % (type(exc).__name__, exc)
    return out


_OPS = {"load_checks": op_load_checks, "run_checks": op_run_checks, "load_negatives": op_load_negatives,
        "apply": op_apply, "mutate_all": op_mutate_all, "audit": op_audit, "probe": op_probe, "ping": lambda req: {"python": sys.version.split()[0]}}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            resp = _OPS[req["op"]](req)
            resp["ok"] = True
        except CheckError as exc:
            resp = {"ok": False, "kind": exc.kind, "message": exc.message, "line": exc.line}
        except OSError as exc:
            resp = {"ok": False, "kind": "load", "message": "cannot read check file: %s" % exc, "line": 0}
        except Exception as exc:  # noqa: BLE001 - a bug here must not kill the worker
            resp = {"ok": False, "kind": "internal", "message": "%s: %s" % (type(exc).__name__, exc), "line": 0}
        try:
            text = json.dumps(resp, allow_nan=False, ensure_ascii=False)
        except ValueError as exc:
            text = json.dumps({"ok": False, "kind": "shape", "message": "run_checks returned a value JSON cannot carry: %s" % exc, "line": 0})
        _proto.write(text + "\n")
        _proto.flush()


if __name__ == "__main__":
    main()
