"""Who calls the function that holds a line, read from the program's source: for a line the
record holds without its callers (a line found in the source, a hook registered in a helper's
constructor), the one statement of the program that runs it (`self.cam = GradCAM(model, layer)`
for a line of `GradCAM.__init__`).

Pure source reading, no torch. Named only where the program has exactly one such call: a name
called from several places says nothing about which one ran.
"""

from __future__ import annotations

import ast

from .source_search import _enclosing_function, _parse, assignments, calls_named, enclosing_class

# Names called from everywhere, or by the framework rather than by a line of the program.
_TOO_COMMON = frozenset({"forward", "backward", "step", "train", "eval", "update", "run", "main", "apply",
                         "reset", "build", "setup", "call", "get", "load", "save", "init"})


def caller_in_source(path: str, line: int, files: list[str]) -> tuple[str, int, str] | None:
    """(path, line, the name called) of the only call in `files` of the function (for
    `__init__`: the class) that holds `line`; None where there is none or several."""
    function = _enclosing_function(path, line)
    if function is None:
        return None
    name = function.name
    if name == "__init__":
        name = enclosing_class(path, line) or ""
    if not name or name.startswith("_") or name in _TOO_COMMON:
        return None
    inside = (function.lineno, function.end_lineno or function.lineno)
    places = [(other, at) for other in files for at in calls_named(other, name, limit=8)
              if not (other == path and inside[0] <= at <= inside[1])]
    return (*places[0], name) if len(places) == 1 else None


def parameter_default(path: str, line: int, name: str) -> tuple[int, str] | None:
    """(the `def` line, the default as written) where the function holding `line` takes a
    parameter `name` with a default (`def optimizer_step(self, zero_grad: bool = False)`)."""
    function = _enclosing_function(path, line)
    if function is None:
        return None
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults))
    pairs += [(arg, default) for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults) if default is not None]
    for arg, default in pairs:
        if arg.arg == name:
            return function.lineno, ast.unparse(default)
    return None


def loops_over_arguments(path: str, line: int) -> bool:
    """Whether the `for` at `line` iterates over what its function was given (`for p, tp in
    zip(params, target_params)` in `def polyak_update(params, target_params, tau)`): the caller
    chose what the loop sees."""
    function = _enclosing_function(path, line)
    if function is None:
        return False
    given = {arg.arg for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    given.discard("self")
    for node in ast.walk(function):
        if isinstance(node, (ast.For, ast.comprehension)) and getattr(node.iter, "lineno", None) == line:
            names = {n.id for n in ast.walk(node.iter) if isinstance(n, ast.Name)}
            return bool(names & given)
    return False


def passed_in_from(path: str, line: int, files: list[str]) -> tuple[str, int] | None:
    """For a statement that stores one of its function's parameters (`self.optimizer =
    optimizer` in `__init__(self, opt, model, optimizer=None)`): where the value passed in was
    made, in the only call of that function (`optimizer = torch.optim.Adam(...)` before
    `trainer = BaseTrainer(opt, model, optimizer)`), or that call itself when it passes an
    expression. None where the value is not a parameter, or the call is not the only one."""
    function = _enclosing_function(path, line)
    statement = next((node for node in ast.walk(function) if isinstance(node, ast.Assign) and node.lineno == line),
                     None) if function is not None else None
    if statement is None or not isinstance(statement.value, ast.Name):
        return None
    found = argument_given(path, line, statement.value.id, files)
    if found is None:
        return None
    caller_path, caller_line, given = found
    if isinstance(given, ast.Name):
        lines = assignments(caller_path, given.id, before=caller_line)
        return (caller_path, lines[-1]) if lines else None
    return caller_path, caller_line


def argument_given(path: str, line: int, name: str, files: list[str]):
    """(path, line, the expression) that the only call of the function holding `line` passes
    for its parameter `name` (`CONFIG["trainable_prefixes"]` for `prefixes`); None where `name`
    is no parameter of it, the call is not the only one, or it passes nothing for it."""
    function = _enclosing_function(path, line)
    if function is None:
        return None
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    bound = _bound_parameters(function)
    if name not in positional and name not in [a.arg for a in function.args.kwonlyargs]:
        return None
    caller = caller_in_source(path, line, files)
    if caller is None:
        return None
    call = next((node for node in ast.walk(_parse(caller[0]) or ast.Module(body=[], type_ignores=[]))
                 if isinstance(node, ast.Call) and node.lineno == caller[1]
                 and ast.unparse(node.func).rsplit(".", 1)[-1] == caller[2]), None)
    if call is None:
        return None
    given = next((k.value for k in call.keywords if k.arg == name), None)
    if given is None and name in bound and bound.index(name) < len(call.args):
        given = call.args[bound.index(name)]
    return (caller[0], caller[1], given) if given is not None else None


def argument_made_at(path: str, line: int, name: str, caller_path: str, caller_line: int) -> int | None:
    """For `name`, a parameter of the function holding `line`, called from the statement at
    (`caller_path`, `caller_line`) (a recorded caller: `recon = model(inputs, locs)` for
    `forward(self, x, locations)`): the line of the caller's function that last bound the name
    passed for it (`inputs, locs = sampler(batch)`). None where the call or the name is unclear."""
    function = _enclosing_function(path, line)
    caller_function = _enclosing_function(caller_path, caller_line, or_module=True)
    if function is None or caller_function is None:
        return None
    bound = _bound_parameters(function)
    if name not in bound:
        return None
    index = bound.index(name)
    # (the calls of that statement that pass that many arguments: one, or nothing is said)
    required = len(bound) - len(function.args.defaults)
    calls = [node for node in ast.walk(caller_function) if isinstance(node, ast.Call)
             and node.lineno <= caller_line <= (node.end_lineno or node.lineno) and len(node.args) > index
             and required <= len(node.args) + len(node.keywords) and len(node.args) <= len(bound)]
    given = calls[0].args[index] if len(calls) == 1 else None
    if not isinstance(given, ast.Name):
        return None
    bindings = [node.lineno for node in ast.walk(caller_function) if isinstance(node, (ast.Assign, ast.AnnAssign))
                and node.lineno < caller_line
                and given.id in {t.id for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                                 for t in ast.walk(target) if isinstance(t, ast.Name)}]
    return max(bindings) if bindings else None


def _bound_parameters(function) -> list[str]:
    """A function's positional parameters, as a call passes them (without `self`/`cls`)."""
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    return positional[1:] if positional and positional[0] in ("self", "cls") else positional
