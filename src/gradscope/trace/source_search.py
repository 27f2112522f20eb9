"""Facts read from the user's source files by parsing them: nothing is imported or run.

- the `with torch.no_grad():` (or decorator) a line ran under (`enclosing_block`);
- the lines of a class that write one of its attributes (`self.blocks = []`,
  `self.blocks.append(...)`): where layers were put in a plain list or dict;
- a function's `def` line and its `return` lines (a decorated function's code starts at its
  first decorator).

This module does not import torch.
"""

from __future__ import annotations

import ast
import functools
import linecache

_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__"})
MAX_FILE_BYTES = 2_000_000


@functools.lru_cache(maxsize=32)
def _parse(path: str):
    try:
        try:
            with open(path, "rb") as handle:
                source = handle.read(MAX_FILE_BYTES + 1)
        except OSError:  # a notebook cell ("In [5]"): its lines are in linecache, not in a file
            source = "".join(linecache.getlines(path)).encode()
            if not source:
                return None
        if len(source) > MAX_FILE_BYTES:
            return None
        return ast.parse(source, filename=path)
    except (OSError, SyntaxError, ValueError):
        return None


def _is_self_attr(node, attr: str) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == attr
            and isinstance(node.value, ast.Name) and node.value.id == "self")


def _writes(node, attr: str) -> bool:
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(_is_self_attr(t, attr) or (isinstance(t, ast.Subscript) and _is_self_attr(t.value, attr))
                   for t in targets)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS and _is_self_attr(node.func.value, attr))


def attribute_writes(path: str, class_name: str, attr: str, limit: int = 4) -> list[tuple[int, str]]:
    """(line, function) pairs, in order, inside `class class_name` in `path` that assign
    `self.<attr>` or change it in place (append/extend/insert/update/setdefault, item
    assignment). Empty if unknown."""
    tree = _parse(path)
    if tree is None:
        return []
    found: set[tuple[int, str]] = set()
    for cls in ast.walk(tree):
        if not (isinstance(cls, ast.ClassDef) and cls.name == class_name):
            continue
        for function in cls.body:
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.update((node.lineno, function.name) for node in ast.walk(function) if _writes(node, attr))
    return sorted(found)[:limit]


GRAD_OFF_WORDS = ("no_grad", "inference_mode", "set_grad_enabled")


def enclosing_block(path: str, line: int, words: tuple[str, ...] = GRAD_OFF_WORDS) -> int | None:
    """The line of the innermost `with` (or decorator) around `line` that mentions one of `words`:
    the `with torch.no_grad():` a line ran under. None when the file cannot be read or nothing
    encloses the line."""
    tree = _parse(path)
    if tree is None:
        return None
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.lineno <= line <= (node.end_lineno or 0):
            if any(word in ast.unparse(item.context_expr) for item in node.items for word in words):
                best = node.lineno if best is None or node.lineno > best else best
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or 0):
            for decorator in node.decorator_list:
                if any(word in ast.unparse(decorator) for word in words):
                    best = decorator.lineno if best is None or decorator.lineno > best else best
    return best


def mode_regions(path: str, word: str = "inference_mode") -> list[tuple[int, int | None]]:
    """The regions of a file that enter a grad mode: (the `with` or decorator line, for a
    decorator the `def` line of the function it wraps, else None)."""
    tree = _parse(path)
    if tree is None:
        return []
    found: list[tuple[int, int | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            if any(word in ast.unparse(item.context_expr) for item in node.items):
                found.append((node.lineno, None))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [(d.lineno, node.lineno) for d in node.decorator_list if word in ast.unparse(d)]
    return sorted(found)


def caching_block(path: str, line: int) -> int | None:
    """The line of the innermost `with <...>.cached():` (or `cache()`) around `line`: a context
    that keeps what is computed inside it for reuse (torch.nn.utils.parametrize.cached())."""
    tree = _parse(path)
    if tree is None:
        return None
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.lineno <= line <= (node.end_lineno or 0) and any(
                isinstance(item.context_expr, ast.Call)
                and ast.unparse(item.context_expr.func).rsplit(".", 1)[-1] in ("cached", "cache")
                for item in node.items):
            best = node.lineno if best is None or node.lineno > best else best
    return best


def _function_at(path: str, first_line: int):
    """The function whose code starts at `first_line` (its first decorator, or its `def`)."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if first_line in (start, node.lineno):
                return node
    return None


def same_function(path: str, line: int, other: int) -> bool:
    """Whether two lines of a file lie in the same innermost function (or both at module level)."""
    a, b = _enclosing_function(path, line, or_module=True), _enclosing_function(path, other, or_module=True)
    return a is not None and a is b


def def_line(path: str, first_line: int) -> int:
    """The `def` line of the function whose code starts at `first_line` (past its decorators)."""
    function = _function_at(path, first_line)
    return function.lineno if function is not None else first_line


def return_lines(path: str, first_line: int, limit: int = 3) -> list[int]:
    """The lines of the function's own `return` statements (not those of nested functions); with
    none, its last line (where the missing `return` belongs). Empty if unknown."""
    function = _function_at(path, first_line)
    if function is None:
        return []
    found, todo = [], list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            found.append(node.lineno)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    if not found:
        return [function.body[-1].end_lineno or function.body[-1].lineno]
    return sorted(found)[:limit]


def ignores_incoming_gradients(path: str, first_line: int) -> bool:
    """For a custom Function's `backward(ctx, *grad_outputs)` starting at `first_line`: does its
    body never read any of the gradients it is given (only `ctx` and saved tensors)? False if
    unknown, or if it takes `*args` it reads."""
    function = _function_at(path, first_line)
    if function is None:
        return False
    arguments = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][1:]
    if function.args.vararg is not None:
        arguments.append(function.args.vararg.arg)
    if not arguments:
        return False
    read = {node.id for statement in function.body for node in ast.walk(statement)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    if read.intersection(arguments):
        return False
    # (a gradient blocker returns nothing or zeros on purpose: `return None`, `return torch.zeros_like(x), None`)
    returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return)]
    def blocks(value):
        if value is None or isinstance(value, ast.Constant) and value.value is None:
            return True
        if isinstance(value, ast.Tuple):
            return all(blocks(item) for item in value.elts)
        return isinstance(value, ast.Call) and ast.unparse(value.func).rsplit(".", 1)[-1] in ("zeros_like", "zeros")
    return not returns or not all(blocks(value) for value in returns)


def sibling_method(path: str, first_line: int, name: str) -> int | None:
    """The `def` line of method `name` of the class that holds the function starting at
    `first_line` (a custom Function's `forward`, from its `backward`). None if unknown."""
    tree = _parse(path)
    function = _function_at(path, first_line)
    if tree is None or function is None:
        return None
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and function in cls.body:
            for node in cls.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                    return node.lineno
    return None


def assignments(path: str, target: str, before: int | None = None, limit: int = 2) -> list[int]:
    """Lines in `path` that assign `target` (a name, or `self.attr`/`obj.attr` written as
    such), the last ones before line `before` if given: where an optimizer was built."""
    return [line for line, _ in assigned_values(path, target, before, limit)]


def assigned_values(path: str, target: str, before: int | None = None, limit: int = 2) -> list[tuple[int, str]]:
    """`assignments`, with the value each assigns, as code (`self.policy_net`, `copy.deepcopy(net)`)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            # (`self.model, self.optimizer = accelerator.prepare(model, optimizer)` assigns each)
            targets = [part for t in targets for part in (t.elts if isinstance(t, ast.Tuple) else [t])]
            if any(ast.unparse(t) == target for t in targets) and (before is None or node.lineno < before):
                found.append((node.lineno, ast.unparse(node.value)))
    return sorted(found)[-limit:]


def class_bases(path: str, class_name: str) -> list[str] | None:
    """The bases of `class class_name` in `path`, as written; None if the file defines no such class."""
    tree = _parse(path)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return [ast.unparse(base) for base in node.bases]
    return None


def function_classes(path: str) -> list[str]:
    """The classes of `path` that subclass an autograd `Function` (by the base's name)."""
    tree = _parse(path)
    return [node.name for node in (ast.walk(tree) if tree is not None else ())
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b).rsplit(".", 1)[-1] == "Function" for b in node.bases)]


def flag_assignments(path: str, attr: str = "requires_grad") -> list[tuple[int, str, bool]]:
    """`<owner>.requires_grad = False` lines: (line, the owner as written, whether the owner is
    the target of an enclosing `for` loop, as in `for p in model.parameters(): p.requires_grad = False`)."""
    tree = _parse(path)
    if tree is None:
        return []
    loop_targets: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor)):
            names = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            for inner in ast.walk(node):
                loop_targets.setdefault(id(inner), set()).update(names)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False:
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == attr:
                    owner = ast.unparse(target.value)
                    found.append((node.lineno, owner, owner in loop_targets.get(id(node), ())))
    return sorted(found)


def class_methods(path: str, class_name: str, names: tuple[str, ...]) -> dict[str, tuple[int, bool]]:
    """{method name: (its `def` line, whether it is a @staticmethod)} of `class class_name` in
    `path`, for the names asked for that it defines."""
    tree = _parse(path)
    found: dict[str, tuple[int, bool]] = {}
    for cls in ast.walk(tree) if tree is not None else ():
        if isinstance(cls, ast.ClassDef) and cls.name == class_name:
            for node in cls.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
                    static = any(ast.unparse(d) == "staticmethod" for d in node.decorator_list)
                    found[node.name] = (node.lineno, static)
    return found


def missing_gradient_handled(path: str, def_line: int) -> int | None:
    """In the function defined at `def_line` (an optimizer's `step`): the first statement of an
    `if <p>.grad is None:` branch that does not skip the parameter (`p.grad = torch.zeros_like(p)`
    rather than `continue`): a parameter without gradient is then still updated."""
    function = _function_at(path, def_line)
    if function is None:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1 \
                and isinstance(node.test.ops[0], ast.Is) and isinstance(node.test.left, ast.Attribute) \
                and node.test.left.attr == "grad" and isinstance(node.test.comparators[0], ast.Constant) \
                and node.test.comparators[0].value is None:
            first = node.body[0]
            if not isinstance(first, (ast.Continue, ast.Return, ast.Break, ast.Raise)):
                return first.lineno
    return None


def constructor_calls(path: str, line: int, class_name: str | None, keyword: str = "inplace") -> list[int]:
    """Lines, inside the statement at `line`, of calls `...class_name(..., keyword=True)`: the
    `nn.LeakyReLU(0.2, inplace=True)` inside a `self.net = nn.Sequential(...)` that built a module.
    `class_name` None: a call of any name (a library's block that passes the flag on to the
    layers it builds: torchvision's `MLP(..., inplace=True)`)."""
    tree = _parse(path)
    if tree is None:
        return []
    statement = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                                 ast.For, ast.While, ast.If, ast.With, ast.Try)) \
                and node.lineno <= line <= (node.end_lineno or node.lineno):
            statement = node
    if statement is None:
        return []
    found = []
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and class_name in (None, ast.unparse(node.func).rsplit(".", 1)[-1]):
            # (the keyword's own line: in a call over several lines, the one to change)
            found += [k.value.lineno for k in node.keywords
                      if k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value is True]
    return sorted(set(found))


def returned_inplace(path: str, def_line: int) -> list[int]:
    """Lines of the function at `def_line` that change in place a name it returns
    (`cos.sub_(m)` ... `return cos`; `x += 1`; `x[i] = 0`): a custom Function's forward that
    writes into its input (which then needs `ctx.mark_dirty`)."""
    function = _function_at(path, def_line)
    if function is None:
        return []
    returned = {node.value.id for node in ast.walk(function)
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Name)}
    found = set()
    for node in ast.walk(function):
        if _inplace_call_on(node, returned):
            found.add(node.lineno)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in returned:
            found.add(node.lineno)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                                  and t.value.id in returned for t in node.targets):
            found.add(node.lineno)
    return sorted(found)


def _written_base(node) -> str | None:
    """What an assignment writes into, as code, past indexing: `w` for `w[:, i] -= d`."""
    targets = [node.target] if isinstance(node, ast.AugAssign) else node.targets if isinstance(node, ast.Assign) else []
    for target in targets:
        if isinstance(target, ast.Subscript):
            return ast.unparse(target.value)
        if isinstance(node, ast.AugAssign):
            return ast.unparse(target)
    return None


def sibling_writes(path: str, line: int, limit: int = 4) -> list[int]:
    """Other lines of the same function that write in place into what the statement at `line`
    writes into (`weight[:, pos] -= a` and `weight[:, pos] += b`): the same fix is due there."""
    return _other_writes(path, line, lambda base, other: other == base, or_module=True)[:limit]


def writes_into_same_object(path: str, line: int, limit: int = 4) -> list[int]:
    """Other lines of the same function that write in place into another tensor of the object
    the statement at `line` writes into (`cconv.weight[...] = W` and `cconv.bias[:] = b`): a
    fix at one line leaves the others failing."""
    return _other_writes(path, line, lambda base, other: "." in base and other is not None and other != base
                         and other.rsplit(".", 1)[0] == base.rsplit(".", 1)[0])[:limit]


def _other_writes(path: str, line: int, related, or_module: bool = False) -> list[int]:
    """Lines of the function holding `line` whose assignment writes into a base `related` to the
    one the statement at `line` writes into (see _written_base)."""
    function = _enclosing_function(path, line, or_module=or_module)
    here = next((n for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign)) and n.lineno == line),
                None) if function is not None else None
    base = _written_base(here) if here is not None else None
    if base is None:
        return []
    return sorted(n.lineno for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign))
                  and n.lineno != line and related(base, _written_base(n)))


def writes_an_argument(path: str, line: int) -> bool:
    """Does the statement at `line` change in place an argument of its function (`batch -= mean`
    in `def normalize_batch(batch)`, `x.mul_(2)`)? Then the caller's tensor is what changes."""
    function = _enclosing_function(path, line)
    if function is None:
        return False
    arguments = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    for node in ast.walk(function):
        if getattr(node, "lineno", None) != line:
            continue
        if isinstance(node, (ast.AugAssign, ast.Assign)) and (_written_base(node) or "").split("[")[0] in arguments:
            return True
        if _inplace_call_on(node, arguments):
            return True
    return False


def writes_own_local(path: str, line: int) -> bool:
    """Does the statement at `line` change in place a plain local name of its function (`x +=
    x_conv` after `x = features`), not an argument nor an attribute (`self.bank[i] = v`)? The
    function owns that tensor: the write is where to make it out of place."""
    function = _enclosing_function(path, line)
    if function is None:
        return False
    arguments = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    for node in ast.walk(function):
        if getattr(node, "lineno", None) != line:
            continue
        if isinstance(node, (ast.AugAssign, ast.Assign)):
            base = (_written_base(node) or "").split("[")[0]
            return bool(base) and base.isidentifier() and base not in arguments
    return False


def reads_an_argument(path: str, line: int) -> bool:
    """Does the statement at `line` combine an argument of its function (other than `self`) as an
    operand, outside any loop of that function? (`self.sum += val * n` in `def update(self, val,
    n=1)`): what it keeps came from the caller. Not `total += loss / len(batches)` in a function
    that loops over `batches` itself."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None or any(isinstance(n, (ast.For, ast.While)) and n.lineno < line <= (n.end_lineno or 0)
                                for n in ast.walk(function)):
        return False
    arguments = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    arguments.discard("self")
    operands = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.BinOp):
            operands |= {side.id for side in (node.left, node.right) if isinstance(side, ast.Name)}
        elif isinstance(node, ast.AugAssign) and isinstance(node.value, ast.Name):
            operands.add(node.value.id)
    return bool(arguments & operands)


def reads_gradient_of(path: str, name: str) -> bool:
    """Does the file read `name.grad`, or ask `autograd.grad(...)` for gradients (of anything)?
    (Unreadable: assumed so.)"""
    tree = _parse(path)
    if tree is None:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.value, ast.Name) \
                and node.value.id == name:
            return True
        # (any call that asks for gradients: autograd.grad, `from torch.autograd import grad`, torch.func)
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] in _GRADIENT_CALLS:
            return True
    return False


_GRADIENT_CALLS = frozenset({"grad", "vjp", "jvp", "jacobian", "hessian", "jacrev", "jacfwd", "grad_and_value"})


def loops_over_an_argument(path: str, line: int) -> bool:
    """Is the statement at `line` inside a `for` loop of its function whose iterable reads an
    argument of that function (other than `self`)? (`for name, p in model.named_parameters():`
    in `def freeze_layers(model, exclude=())`): what the loop touches is what the caller handed it."""
    function = _enclosing_function(path, line)
    if function is None:
        return False
    arguments = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    arguments.discard("self")
    return any(isinstance(node, (ast.For, ast.AsyncFor)) and node.lineno < line <= (node.end_lineno or 0)
               and any(isinstance(n, ast.Name) and n.id in arguments for n in ast.walk(node.iter))
               for node in ast.walk(function))


def parameter_pair_loops(path: str, limit: int = 2) -> list[int]:
    """Lines of loops over two models' parameters side by side (`for e, p in zip(ema.parameters(),
    model.parameters()):`), or of calls given two models' parameters (`polyak_update(
    net.parameters(), target.parameters(), tau)`): a copy or an average of the parameters, which
    leaves the buffers (batch-norm statistics) out."""
    tree = _parse(path)
    if tree is None:
        return []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and ast.unparse(node.iter.func) == "zip":
            if _parameter_lists(node.iter.args) >= 2:
                found.add(node.lineno)
        elif isinstance(node, ast.Call) and ast.unparse(node.func) != "zip" and _parameter_lists(node.args) >= 2:
            found.add(node.lineno)
    return sorted(found)[:limit]


def _parameter_lists(arguments) -> int:
    return sum(1 for a in arguments if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute)
               and a.func.attr in ("parameters", "named_parameters"))


def takes_arguments(path: str, line: int) -> bool:
    """Whether the function around `line` is given something to work on (an argument other
    than `self`): a helper (`def freeze(model): ...`) whose caller chose what it acts on."""
    function = _enclosing_function(path, line)
    if function is None:
        return False
    return any(a.arg != "self" for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs))


def kept_on_objects(path: str, line: int, limit: int = 2) -> list[tuple[int, str]]:
    """In the function around `line`: `<obj>.<attr>.append(...)` / `.extend(...)` calls, whose
    list lives on an object (a replay memory on the policy) and outlives the call, unlike a
    local list. (line, the list as written)."""
    function = _enclosing_function(path, line)
    if function is None:
        return []
    found = []
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert") and isinstance(node.func.value, ast.Attribute)):
            found.append((node.lineno, ast.unparse(node.func.value)))
    return sorted(found)[:limit]


@functools.lru_cache(maxsize=4096)  # (asked for many lines of one large file when a run has many findings)
def _enclosing_function(path: str, line: int, or_module: bool = False):
    """The innermost function whose lines hold `line` (or the module, if asked and none does)."""
    tree = _parse(path)
    if tree is None:
        return None
    found = tree if or_module else None
    for node in ast.walk(tree):  # breadth first: an inner function comes after its outer one
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or 0):
            found = node
    return found


def _inplace_call_on(node, names) -> bool:
    """`x.sub_(...)` (a method with a trailing underscore, not a dunder) on one of `names`."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_")
            and not node.func.attr.endswith("__") and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names)


def enclosing_function_name(path: str, line: int) -> str | None:
    """The name of the innermost function holding the line (None at module level, or unknown)."""
    function = _enclosing_function(path, line)
    return function.name if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def enclosing_class(path: str, line: int) -> str | None:
    """The name of the innermost class whose lines hold `line` (a method's class)."""
    tree = _parse(path)
    if tree is None:
        return None
    found = None
    for node in ast.walk(tree):  # breadth first: an inner class comes after its outer one
        if isinstance(node, ast.ClassDef) and node.lineno <= line <= (node.end_lineno or 0):
            found = node.name
    return found


def keyword_settings(path: str, callee: str, keywords: set[str], limit: int = 2) -> list[tuple[int, str]]:
    """Calls `...callee(..., k=<constant>)` in the file with `k` one of `keywords` and the constant
    not None or False (`DiceLoss(threshold=0.5)`): (line, "k=value"), the settings a user wrote."""
    tree = _parse(path)
    if tree is None or not keywords:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == callee:
            for keyword in node.keywords:
                if (keyword.arg in keywords and isinstance(keyword.value, ast.Constant)
                        and keyword.value.value is not None and keyword.value.value is not False):
                    found.append((node.lineno, f"{keyword.arg}={ast.unparse(keyword.value)}"))
    return sorted(found)[:limit]


@functools.lru_cache(maxsize=4096)
def enclosing_condition(path: str, line: int) -> int | None:
    """The line of the innermost `if` whose body (or else branch) holds `line`, within the same
    function: the branch a call is taken in only on some runs."""
    function = _enclosing_function(path, line, or_module=True)
    if function is None:
        return None
    best = None
    for node in ast.walk(function):
        if isinstance(node, ast.If) and node.lineno < line <= (node.end_lineno or 0):
            best = node.lineno if best is None or node.lineno > best else best
        elif isinstance(node, ast.IfExp) and node.lineno <= line <= (node.end_lineno or 0):
            best = node.lineno if best is None or node.lineno > best else best
    return best


@functools.lru_cache(maxsize=4096)
def guard_conditions(path: str, line: int, limit: int = 2) -> list[int]:
    """The lines of the `if`s before `line`, in the blocks that hold it within its function,
    whose body always leaves the block (`if cfg["head"] == "pretraining": return ...`, a
    `continue`, a `raise`) and has no `else`: the line runs only because they did not fire.
    Nearest first."""
    function = _enclosing_function(path, line)
    if function is None:
        return []
    found: list[int] = []
    for node in ast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block or not isinstance(block[0], ast.stmt):
                continue
            holder = next((s for s in block if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
            if holder is None:
                continue
            found += [s.lineno for s in block if s.lineno < holder.lineno and isinstance(s, ast.If)
                      and not s.orelse and _leaves(s.body[-1]) and not _waits_for_a_size(s.test)]
    return sorted(set(found), reverse=True)[:limit]


def _waits_for_a_size(test: ast.expr) -> bool:
    """A guard that orders a size against a threshold (`if len(self.memory) < self.batch_size:`):
    it waits until something has grown, and every run passes it in time; it picks no path."""
    return isinstance(test, ast.Compare) and any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in test.ops) \
        and any(isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id == "len"
                for part in (test.left, *test.comparators))


def _leaves(statement: ast.stmt) -> bool:
    return isinstance(statement, (ast.Return, ast.Raise, ast.Continue, ast.Break))


def hooks_registered(path: str, method: str, limit: int = 4) -> list[tuple[int, int | None]]:
    """Calls `.method(fn)` in the file (`register_full_backward_hook(full_hook)`): (the call's
    line, the `def` line of `fn` when it is a function of the file, found by name)."""
    tree = _parse(path)
    if tree is None:
        return []
    defs = [(node.lineno, node.name) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method and node.args:
            target = node.args[0]
            name = target.id if isinstance(target, ast.Name) else None
            # (the last `def` of that name before the call: two nested `full_hook`s are two functions)
            before = [line for line, defined in defs if defined == name and line < node.lineno]
            found.append((node.lineno, max(before) if before else None))
    return sorted(found)[:limit]


def returns_tuple_or_none(path: str, first_line: int) -> bool:
    """Whether every `return` of the function starting at `first_line` gives None or a tuple
    written as such (a module backward hook's allowed answers)."""
    function = _function_at(path, first_line)
    if function is None:
        return True
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, ast.Tuple) \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            return False
    return True


def calls_with_argument(path: str, callee: str, argument: str, limit: int = 4) -> list[tuple[int, str]]:
    """Calls `...callee(...)` in the file with an argument written as `argument` (or ending in
    `.argument`): `checkpoint(self.block, x, use_reentrant=True)` for ("checkpoint", "block").
    (line, the call's keywords as written, e.g. "use_reentrant=True")."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == callee:
            written = [ast.unparse(arg) for arg in node.args]
            if any(text == argument or text.endswith("." + argument) for text in written):
                found.append((node.lineno, ", ".join(ast.unparse(k) for k in node.keywords)))
    return sorted(found)[:limit]


def keyword_calls(path: str, callee: str, keyword: str, value, limit: int = 4) -> list[int]:
    """Lines of calls `...callee(...)` that pass `keyword=value` as a constant
    (`optimizer.zero_grad(set_to_none=False)` for ("zero_grad", "set_to_none", False))."""
    tree = _parse(path)
    if tree is None:
        return []
    found = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == callee
             and any(k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value == value
                     and type(k.value.value) is type(value) for k in node.keywords)]
    return sorted(found)[:limit]


_SPLITTING = ("chunk", "unbind", "split", "tensor_split", "unsafe_chunk", "hsplit", "vsplit", "dsplit")


def split_base_read_later(path: str, make_line: int, after_line: int) -> bool:
    """Whether the tensor that `chunk`/`unbind`/`split` at `make_line` split may be read after
    `after_line` (an in-place change of one of its parts there was then perhaps meant for it).
    False only when the split tensor is an expression no later line can name (`self.to_qkv(x)`)
    or a local name the rest of its function never reads; True when unsure."""
    function = _enclosing_function(path, make_line, or_module=True)
    if function is None:
        return True
    splits = [node for node in ast.walk(function) if isinstance(node, ast.Call) and node.lineno == make_line
              and ast.unparse(node.func).rsplit(".", 1)[-1] in _SPLITTING]
    if len(splits) != 1:
        return True
    call = splits[0]
    base = call.func.value if isinstance(call.func, ast.Attribute) and not ast.unparse(call.func).startswith("torch.") \
        else (call.args[0] if call.args else None)
    if base is None or isinstance(base, ast.Attribute):
        return True  # (state on an object: read anywhere)
    if not isinstance(base, ast.Name):
        return False  # (a call's result, split at once)
    name = base.id
    loops = [node for node in ast.walk(function) if isinstance(node, (ast.For, ast.While))
             and node.lineno <= after_line <= (node.end_lineno or node.lineno)]
    if any(isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
           for loop in loops for node in ast.walk(loop)):
        return True  # (read again by the loop's next pass)
    # In the order the lines run: a read first says yes; a new binding first (`joint =
    # torch.cat(parts)`) says no, as what is read after it is another tensor.
    later = sorted((node for node in ast.walk(function) if isinstance(node, ast.stmt)
                    and node.lineno > after_line and not isinstance(node, _COMPOUND)),
                   key=lambda node: node.lineno)
    for statement in later:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else statement
        if value is not None and any(isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
                                     for node in ast.walk(value)):
            return True
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                     for t in statement.targets):
            # (a binding inside a branch the changed line is not in may not run: unsure)
            return any(_holds(node, statement.lineno) and not _holds(node, after_line)
                       for node in ast.walk(function) if isinstance(node, _COMPOUND) and node is not function)
    return False


_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.While, ast.If, ast.With, ast.Try)


def _holds(node: ast.AST, line: int) -> bool:
    return node.lineno <= line <= (node.end_lineno or node.lineno)


def loop_variable_changed(path: str, line: int) -> tuple[str, str] | None:
    """(the name, the iterable as written) when the statement at `line` changes in place a name
    that an enclosing `for` binds (`for i, part in enumerate(parts): part.mul_(w)`): rebinding
    that name to an out-of-place result would leave the list it came from unchanged."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    receivers = {node.func.value.id for node in ast.walk(statement) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_")
                 and isinstance(node.func.value, ast.Name)}
    if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
        receivers.add(statement.target.id)
    for loop in ast.walk(function):
        if isinstance(loop, ast.For) and _holds(loop, line):
            bound = {node.id for node in ast.walk(loop.target) if isinstance(node, ast.Name)}
            iterable = loop.iter.args[0] if isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter.func) == "enumerate" \
                and loop.iter.args else loop.iter
            for name in sorted(receivers & bound):
                return name, ast.unparse(iterable)
    return None


def requires_grad_writes(path: str, limit: int = 4) -> list[int]:
    """Lines that set a tensor's requires_grad, to any value (`param.requires_grad = flag`,
    `p.requires_grad_(False)`)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = {node.lineno for node in ast.walk(tree)
             if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad"
                                                      for t in node.targets))
             or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and node.func.attr == "requires_grad_")}
    return sorted(found)[:limit]


def attribute_set_to(path: str, attr: str, value, limit: int = 2) -> list[int]:
    """Lines of `<anything>.attr = value` with a constant value (`module.inplace = True` in a
    loop that switches a model's layers after they were built)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is value
             and any(isinstance(t, ast.Attribute) and t.attr == attr for t in node.targets)]
    return sorted(found)[:limit]


def parameter_group_lists(path: str, limit: int = 2) -> list[int]:
    """For each list the file writes of two or more parameter groups (`[{"params": ...,
    "weight_decay": 0.0}, ...]`): the line of its last group, where another one goes."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List):
            groups = [e for e in node.elts if isinstance(e, ast.Dict)
                      and any(isinstance(k, ast.Constant) and k.value == "params" for k in e.keys)]
            if len(groups) >= 2:
                found.append(groups[-1].lineno)
    return sorted(found)[:limit]


def name_filters(path: str, limit: int = 8) -> list[tuple[int, str]]:
    """(line, string) for the tests of a name against a string (`"pooler" not in n`,
    `name.startswith("head")`) in the conditions (`if`, a comprehension's `if`) of functions
    that go over `named_parameters()`: where a program picks parameters by name."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        body = [n for n in scope.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))] \
            if isinstance(scope, ast.Module) else [scope]
        if not any(isinstance(n, ast.Attribute) and n.attr == "named_parameters" for b in body for n in ast.walk(b)):
            continue
        tests = [n.test for b in body for n in ast.walk(b) if isinstance(n, ast.If)]
        tests += [t for b in body for n in ast.walk(b) if isinstance(n, ast.comprehension) for t in n.ifs]
        for test in tests:
            for part in ast.walk(test):
                if isinstance(part, ast.Compare) and isinstance(part.left, ast.Constant) \
                        and isinstance(part.left.value, str) and isinstance(part.ops[0], (ast.In, ast.NotIn)):
                    found.append((part.lineno, part.left.value))
                elif isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) \
                        and part.func.attr in ("startswith", "endswith") and part.args \
                        and isinstance(part.args[0], ast.Constant) and isinstance(part.args[0].value, str):
                    found.append((part.lineno, part.args[0].value))
    return sorted(set(found))[:limit]


@functools.lru_cache(maxsize=256)
def counters(path: str) -> frozenset[str]:
    """The names the file adds to in place (`iteration += 1`, `self.step += 1`): a program's
    counters, not options."""
    tree = _parse(path)
    if tree is None:
        return frozenset()
    return frozenset(ast.unparse(node.target).rsplit(".", 1)[-1] for node in ast.walk(tree)
                     if isinstance(node, ast.AugAssign) and isinstance(node.target, (ast.Name, ast.Attribute)))


def keyword_uses(path: str, keywords: dict[str, str], limit: int = 8) -> list[tuple[int, str, str]]:
    """(line, keyword, value as written) for the calls in the file given one of `keywords` with
    a value other than the one it is mapped to (`freeze=freeze` or `requires_grad=False`, for
    {"freeze": "False", "requires_grad": "True"}: the calls that may build a layer frozen)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = {(node.lineno, k.arg, ast.unparse(k.value)) for node in ast.walk(tree) if isinstance(node, ast.Call)
             for k in node.keywords if k.arg in keywords and ast.unparse(k.value) != keywords[k.arg]}
    return sorted(found)[:limit]


_NAMED_ITERATIONS = ("named_parameters", "named_modules", "named_children", "named_buffers")


def selects_by_name(path: str, line: int) -> bool:
    """Whether the statement at `line` reads the name from a loop over a model's named parts
    (`for name, p in model.named_parameters():` ... `name.startswith(prefix)`): it picks them by name."""
    function = _enclosing_function(path, line, or_module=True)
    if function is None:
        return False
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Call) \
                and ast.unparse(node.iter.func).rsplit(".", 1)[-1] in _NAMED_ITERATIONS \
                and isinstance(node.target, ast.Tuple) and node.target.elts \
                and isinstance(node.target.elts[0], ast.Name):
            names.add(node.target.elts[0].id)
    return bool(names & set(names_read(path, line)))


def constructor_calls_in(paths, class_name: str, keyword: str = "inplace") -> list[tuple[str, int]]:
    """`class_name(..., keyword=True)` calls anywhere in these files, as (path, line): a module
    built in a registry or a factory (`"relu": lambda: nn.ReLU(inplace=True)`) far from the line
    that put it into its parent."""
    found = []
    for path in dict.fromkeys(paths):
        tree = _parse(path)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and class_name in (None, ast.unparse(node.func).rsplit(".", 1)[-1]) and any(
                    k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in node.keywords):
                found.append((path, node.lineno))
    return sorted(set(found))


def _statement_at(function, line: int):
    best = None
    for node in ast.walk(function):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno) \
                and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def _target_names(statement) -> list[str]:
    """The names a statement binds or writes into, as written (`out` for `out[0] = ...` and for
    `out += y`; `self.memory` for `self.memory = m`)."""
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        targets = [statement.target]
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
            and isinstance(statement.value.func, ast.Attribute):
        targets = [statement.value.func.value]  # x.add_(y): writes into x
    else:
        return []
    names = []
    for target in targets:
        for element in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
            while isinstance(element, ast.Subscript):
                element = element.value
            names.append(ast.unparse(element))
    return names


def names_written(path: str, line: int) -> list[str]:
    """The names the statement at `line` binds or writes into (see _target_names); [] where the
    source cannot be read."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    return _target_names(statement) if statement is not None else []


def alias_assignment(path: str, line: int) -> int | None:
    """For a statement that writes in place into a name (`out[:, 0] = y`, `out += y`,
    `out.mul_(2)`): the earlier statement of the same function that made that name another
    name for an existing tensor (`out = x`, `out = x.view(...)`, `out = x[:, :8]`), whose change
    then is the caller's tensor's change; None if there is none."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    written = _target_names(statement)
    if not written:
        return None
    # The last statement before the write that binds the name decides what it holds there:
    # `h = x` then `h = torch.sigmoid(lin(h))` then `h += 1` writes into a new tensor, not x.
    latest = max((node for node in ast.walk(function) if getattr(node, "lineno", statement.lineno) < statement.lineno
                  and _binds(node) & set(written)), key=lambda node: node.lineno, default=None)
    if not (isinstance(latest, ast.Assign) and len(latest.targets) == 1 and isinstance(latest.targets[0], ast.Name)):
        return None
    value = latest.value
    while isinstance(value, (ast.Subscript, ast.Call)):
        if isinstance(value, ast.Call):  # x.view(...), x.transpose(...): still x's memory
            if not (isinstance(value.func, ast.Attribute) and value.func.attr in _VIEW_METHODS):
                return None
            value = value.func.value
        else:
            value = value.value
    return latest.lineno if isinstance(value, (ast.Name, ast.Attribute)) else None


def views_handed_out(path: str, line: int, limit: int = 2) -> list[int]:
    """For a statement that writes in place into an attribute's tensor (`self._memory[i:j] = x`):
    the `return` lines of its class that hand out that tensor or a view of it
    (`return self._memory[:size]`), whose holders then see the write."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    targets = [t for t in getattr(statement, "targets", [])] if isinstance(statement, ast.Assign) else []
    written = {ast.unparse(t.value) for t in targets if isinstance(t, ast.Subscript)
               and isinstance(t.value, ast.Attribute) and isinstance(t.value.value, ast.Name)
               and t.value.value.id == "self"}
    tree = _parse(path)
    if not written or tree is None:
        return []
    owner = next((node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                  and node.lineno <= line <= (node.end_lineno or node.lineno)), None)
    if owner is None:
        return []
    found = []
    for node in ast.walk(owner):
        if isinstance(node, ast.Return) and node.value is not None:
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            for value in values:
                while isinstance(value, (ast.Subscript, ast.Call)):
                    value = value.value if isinstance(value, ast.Subscript) else (
                        value.func.value if isinstance(value.func, ast.Attribute) and value.func.attr in _VIEW_METHODS
                        else None)
                if value is not None and ast.unparse(value) in written:
                    found.append(node.lineno)
    return sorted(set(found))[:limit]


def rebinds_own_tensor(path: str, line: int) -> bool:
    """Whether the assignment at `line` rebinds a name to a view of what it held, in a function
    that made that tensor itself (`nodes = nodes.view(b, n, -1)`, `nodes` not a parameter): no
    other name is left to the tensor, so the write through the new name is the one to change."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return False
    value = statement.value
    while isinstance(value, (ast.Subscript, ast.Call)):
        value = value.func.value if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            else value.value if isinstance(value, ast.Subscript) else None
    parameters = {arg.arg for arg in ast.walk(function.args) if isinstance(arg, ast.arg)}
    if not isinstance(value, ast.Name) or value.id in parameters:
        return False
    # (`x = features`, a new name for the function's own tensor whose old name is not read again:
    # a rename, which leaves the write through the new name the one to change)
    return value.id == statement.targets[0].id or not any(
        isinstance(node, ast.Name) and node.id == value.id and isinstance(node.ctx, ast.Load) and node.lineno > line
        for node in ast.walk(function))


def binding_line(path: str, line: int) -> int | None:
    """The statement before `line`, in the same function, that last bound the name the statement
    at `line` works on (`for name, p in clone.named_parameters():` for `p.requires_grad = False`):
    where that tensor was picked."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    names = {name.split(".")[0].split("[")[0] for name in _target_names(statement)}
    latest = max((node for node in ast.walk(function) if isinstance(node, ast.stmt)
                  and node.lineno < statement.lineno and _binds(node) & names),
                 key=lambda node: node.lineno, default=None)
    return latest.lineno if latest is not None else None


def ineffective_detaches(path: str, limit: int = 2) -> list[int]:
    """Lines where a `.detach()` changes nothing the program keeps: its result assigned to a loop
    variable that the loop body does not read again (`for h in self.states: h = h.detach()`
    leaves the tensors in `self.states` as they were)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
            continue
        name = loop.target.id
        for statement in ast.walk(loop):
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name \
                    and _is_detach_of(statement.value, name) \
                    and not any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                                and n.lineno > statement.lineno for n in ast.walk(loop)):
                found.append(statement.lineno)
    return sorted(set(found))[:limit]


def _is_detach_of(value: ast.AST, name: str) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "detach"
            and isinstance(value.func.value, ast.Name) and value.func.value.id == name)


def _binds(node: ast.AST) -> set[str]:
    """The plain names a statement binds anew (assignment, loop or `with` target, walrus);
    not `h += 1`, which writes into what `h` holds."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.For, ast.NamedExpr)):
        targets = [node.target]
    elif isinstance(node, ast.withitem):
        return set()
    elif isinstance(node, ast.With):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    else:
        return set()
    names, stack = set(), list(targets)
    while stack:  # plain names, and names unpacked into (`a, *b = ...`); not `h[0] = ...`
        target = stack.pop()
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            stack.extend(target.elts)
        elif isinstance(target, ast.Starred):
            stack.append(target.value)
    return names


_VIEW_METHODS = frozenset({"view", "view_as", "reshape", "transpose", "permute", "t", "squeeze", "unsqueeze",
                           "expand", "expand_as", "narrow", "select", "flatten", "unflatten", "detach",
                           "as_strided", "unbind", "split", "chunk", "movedim", "diagonal"})


def carrying_statement(path: str, line: int) -> int | None:
    """For a statement that makes a value (`m = self.memory + update`): the later statement of
    the same function that stores it where it outlives the call (`self.memory = m`, a global, an
    item of a container held elsewhere), and so carries it, with its graph, into the next
    iteration; the statement itself when it stores directly (`self.h = self.cell(x, self.h)`).
    None if there is none."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    # (assignments only: `self.log_probs.append(p)` keeps a value for a later loss, not a state
    # the next step starts from; detaching it would stop its training)
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) \
            and any(_outlives(name) for name in _target_names(statement)):
        return statement.lineno
    made = {n for n in _target_names(statement) if "." not in n and "[" not in n}
    if not made:
        return None
    later = sorted((n for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign))
                    and n.lineno > statement.lineno), key=lambda n: n.lineno)
    for node in later:  # (through the local names computed from it: `dt`, then `dtA = a * dt`, then the store)
        uses = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        if uses & made:
            if any(_outlives(name) for name in _target_names(node)):
                return node.lineno
            made |= {n for n in _target_names(node) if "." not in n and "[" not in n}
    return None


def passthrough_rebind(path: str, line: int) -> int | None:
    """For a statement that uses a value kept on an object (`self.cache[0, :b] = xk` reads and
    writes `self.cache`): the earlier statement of the same function that binds that name again
    from itself (`self.cache = self.cache.to(xq)`), where the kept value enters this call and a
    `.detach()` of it belongs. None if there is none."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    used = {ast.unparse(node) for node in ast.walk(statement) if isinstance(node, ast.Attribute)}
    earlier = [node for node in ast.walk(function) if isinstance(node, ast.Assign) and len(node.targets) == 1
               and node.lineno < statement.lineno and isinstance(node.targets[0], ast.Attribute)]
    for node in sorted(earlier, key=lambda node: node.lineno, reverse=True):
        name = ast.unparse(node.targets[0])
        if name in used and any(isinstance(part, ast.Attribute) and ast.unparse(part) == name
                                for part in ast.walk(node.value)):
            return node.lineno
    return None


def _outlives(target: str) -> bool:
    """A target written as an attribute (`self.memory`, `state.h`): it outlives the function."""
    return "." in target.split("[", 1)[0]


def reentrant_checkpoint_calls(path: str) -> list[int]:
    """Lines of `checkpoint(...)` calls (torch.utils.checkpoint's, however imported) that do not
    pass `use_reentrant=False`: before torch 2.4 their default, and still reentrant where True."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] in ("checkpoint",
                                                                                         "checkpoint_sequential"):
            setting = next((k.value for k in node.keywords if k.arg == "use_reentrant"), None)
            if not (isinstance(setting, ast.Constant) and setting.value is False):
                found.append(node.lineno)
    return sorted(found)


def method_calls_on(path: str, attribute: str, method: str, limit: int = 2) -> list[int]:
    """Lines of `<...>.attribute.method()` or `attribute.method()` calls (`model.backbone.eval()`)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method
                and ast.unparse(node.func.value).rsplit(".", 1)[-1] == attribute):
            found.append(node.lineno)
    return sorted(found)[:limit]


_GUARDS = ("clamp", "clamp_", "clamp_min", "clamp_max", "clip", "masked_fill", "masked_fill_", "where",
           "nan_to_num", "maximum", "minimum", "abs")


def input_guard(path: str, line: int, op: str | None = None) -> tuple[int, str] | None:
    """For the op `op` called at `line` (`theta = torch.acos(cos)`): the earlier statement of the
    same function that made its input (`cos = torch.clamp(cos, -1.0, 1.0)`), when that statement
    is a guard that lets the op's bad value through: (its line, the guard's name). A clamp whose
    bound is a number at the edge of the op's domain (0 for sqrt or log, ±1 for acos) lets the
    edge through; one strictly inside guards, and one with a bound that is not a number is not
    judged. None where the op's call is not found on the line."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None or not op:
        return None
    argument = _op_input(statement, op.strip("_").removeprefix("r") if op.startswith("__r") else op.strip("_"))
    if argument is None:
        return None
    made = [node for node in ast.walk(function) if isinstance(node, (ast.Assign, ast.AugAssign))
            and node.lineno < statement.lineno and argument in _target_names(node)]
    if not made:
        return None
    last = max(made, key=lambda node: node.lineno)
    for node in ast.walk(last):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).rsplit(".", 1)[-1]
            if name in _GUARDS and _lets_edge_through(node, name, op.strip("_")):
                return last.lineno, name
    return None


_BINARY_OPS = {"pow": ast.Pow, "truediv": ast.Div, "div": ast.Div}
_EDGES = {"sqrt": (0.0,), "rsqrt": (0.0,), "log": (0.0,), "log2": (0.0,), "log10": (0.0,), "pow": (0.0,),
          "truediv": (0.0,), "div": (0.0,), "acos": (-1.0, 1.0), "asin": (-1.0, 1.0), "atanh": (-1.0, 1.0)}
_CLAMPS = ("clamp", "clamp_", "clamp_min", "clamp_max", "clip", "maximum", "minimum")


def nonfinite_fill(path: str, line: int, op: str | None) -> tuple[int, str] | None:
    """For the op `op` at `line` (`attn = dots.softmax(-1)`): an earlier statement of the same
    function that fills its input with +inf or NaN (`dots.masked_fill_(mask, -float("-inf"))`,
    `x[m] = float("nan")`): (its line, the value as written). A softmax of a row holding +inf
    is NaN; -inf is a mask's usual value, fine while a row keeps a finite entry, so not judged."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    name = _op_input(statement, op.strip("_")) if statement is not None and op else None
    if name is None:
        return None
    found = None
    for node in ast.walk(function):
        if not isinstance(node, ast.stmt) or node.lineno >= statement.lineno:
            continue
        value = None
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                                and t.value.id == name for t in node.targets):
            value = node.value
        else:
            for call in (n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
                fills = call.func.attr in ("masked_fill", "masked_fill_", "fill_") \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == name
                if fills and call.args:
                    value = call.args[-1]
        number = _nonfinite(value) if value is not None else None
        if number is not None and not number < 0 and (found is None or node.lineno > found[0]):
            found = (node.lineno, ast.unparse(value) + (" (NaN)" if number != number else " (+inf)"))
    return found


def _nonfinite(node) -> float | None:
    """The value of `float("inf")`, `-float("-inf")`, `math.inf`, `torch.inf`, `float("nan")`
    written out, if it is not finite."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _nonfinite(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "float" and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        try:
            value = float(node.args[0].value)
        except ValueError:
            return None
        return value if value != value or value in (float("inf"), float("-inf")) else None
    if isinstance(node, ast.Attribute) and node.attr in ("inf", "nan") and ast.unparse(node.value) in ("math", "torch", "np", "numpy"):
        return float(node.attr)
    return None


def _op_input(statement, op: str) -> str | None:
    """The name the op at this statement is applied to: `torch.sqrt(v)`, `v.sqrt()`, `v ** 0.5`,
    `a / v` (the denominator)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == op:
            if node.args and isinstance(node.args[0], ast.Name) and not (
                    isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id not in ("torch", "F", "math")):
                return node.args[0].id
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                return node.func.value.id
        if isinstance(node, ast.BinOp) and isinstance(node.op, _BINARY_OPS.get(op, ())):
            side = node.left if op == "pow" else node.right
            if isinstance(side, ast.Name):
                return side.id
    return None


def _lets_edge_through(call, name: str, op: str) -> bool:
    """Whether a guard call lets the edge of the op's domain through. Clamps: when a bound is a
    number at an edge (not when strictly inside, nor when it is not a number: unknown). Other
    guards (a mask, nan_to_num, abs) do not keep a value off the edge."""
    if name not in _CLAMPS:
        return True
    edges = _EDGES.get(op)
    if edges is None:
        return False
    method = isinstance(call.func, ast.Attribute) and not (
        isinstance(call.func.value, ast.Name) and call.func.value.id in ("torch", "F", "np", "numpy"))
    bounds = [*(call.args if method else call.args[1:]), *(k.value for k in call.keywords if k.arg in ("min", "max"))]
    numbers = [_number(b) for b in bounds]
    if not numbers or any(n is None for n in numbers):
        return False
    return any(n in edges for n in numbers)


def _number(node) -> float | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def mode_calls(path: str, training: bool, limit: int = 16) -> list[int]:
    """Lines of the method calls that set a module's mode: `x.train()` / `x.train(True)` (training)
    or `x.eval()` / `x.train(False)` (not); a function called `train()` is not one."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)) or node.keywords:
            continue
        flag = node.args[0].value if len(node.args) == 1 and isinstance(node.args[0], ast.Constant) else None
        if node.func.attr == "eval" and not node.args:
            sets = False
        elif node.func.attr == "train" and (not node.args or isinstance(flag, bool)):
            sets = True if not node.args else flag
        else:
            continue
        if sets is training:
            found.append(node.lineno)
    return sorted(found)[:limit]


@functools.lru_cache(maxsize=1024)
def _call_lines(path: str, name: str) -> tuple[int, ...]:
    tree = _parse(path)
    if tree is None:
        return ()
    return tuple(sorted(node.lineno for node in ast.walk(tree)
                        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == name))


def calls_named(path: str, name: str, limit: int = 4) -> list[int]:
    """Lines of calls of `name`, as a function or a method (`h = m.register_full_backward_hook(f)`)."""
    return list(_call_lines(path, name)[:limit])


def saved_tensors_changed(path: str, def_line: int) -> list[int]:
    """Lines of the function at `def_line` (a custom Function's backward) that change in place a
    tensor it unpacked from `ctx.saved_tensors` (`(grad,) = ctx.saved_tensors` ... `grad.mul_(g)`):
    the saved value is then wrong for any later backward through the same graph."""
    function = _function_at(path, def_line)
    if function is None:
        return []
    saved: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and "saved_tensors" in ast.unparse(node.value):
            for target in node.targets:
                saved.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    found = set()
    for node in ast.walk(function):
        if _inplace_call_on(node, saved):
            found.add(node.lineno)
        elif isinstance(node, (ast.AugAssign, ast.Assign)) and (_written_base(node) or "").split("[")[0] in saved:
            found.add(node.lineno)
    return sorted(found)


def enclosing_loop(path: str, line: int) -> tuple[int, int] | None:
    """The first and last lines of the innermost `for`/`while` loop (of the same function) around
    `line`, or None."""
    function = _enclosing_function(path, line, or_module=True)
    if function is None:
        return None
    best = None
    for node in ast.walk(function):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)) and node.lineno <= line <= (node.end_lineno or 0):
            if best is None or node.lineno >= best.lineno:
                best = node
    return (best.lineno, best.end_lineno) if best is not None else None


def reads_a_parameter(path: str, line: int) -> bool:
    """Whether the statement at `line` reads a parameter of the function it is in (`logits` in
    `def update(self, logits): loss = f(logits)`): the value came from the caller."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return False
    arguments = function.args
    names = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)} - {"self", "cls"}
    value = getattr(statement, "value", statement)
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(value))


def attribute_cache_check(path: str, line: int) -> int | None:
    """For a statement that stores a value on an attribute (`self._cache = (k, kernel)`): the line
    of an `if` in the same function whose condition reads an attribute of the same object and
    whose body reads the stored one back (`if self._key is not None and ...: return self._cache`):
    the cache hit. None when there is none."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    stored = {name for name in _target_names(statement) if "." in name}
    if not stored:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.If) and node.lineno < statement.lineno \
                and not statement.lineno <= (node.end_lineno or node.lineno):  # (not the miss branch around the store)
            body = {ast.unparse(n) for part in node.body for n in ast.walk(part) if isinstance(n, ast.Attribute)}
            if body & stored:
                return node.lineno
    return None


def imported_modules(path: str) -> set[str]:
    """The names of the modules the file imports (`import config`, `from utils.cfg import X`,
    `from . import config`): each dotted name and its last part."""
    tree = _parse(path)
    if tree is None:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            dotted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            dotted = [node.module] if node.module else []
            dotted += [f"{node.module}.{alias.name}" if node.module else alias.name for alias in node.names]
        else:
            continue
        for name in dotted:
            names.add(name)
            names.add(name.rsplit(".", 1)[-1])
    return names


def option_settings(path: str, name: str, limit: int = 4) -> list[tuple[int, str]]:
    """Where an option called `name` is given a value: a keyword argument (`use_reentrant=True`),
    a dict entry (`{"use_reentrant": True}`), an assignment (`use_reentrant = True`,
    `cfg.use_reentrant = True`): (line, the value as written), parameter defaults left out."""
    return _option_index(path).get(name, [])[:limit]


@functools.lru_cache(maxsize=64)
def _option_index(path: str) -> dict[str, list[tuple[int, str]]]:
    """option_settings for every name of the file, from one walk of its tree (asked for many
    names of one large file when a run has many findings)."""
    tree = _parse(path)
    if tree is None:
        return {}
    found: dict[str, dict[int, str]] = {}

    def note(name, line: int, value) -> None:
        if isinstance(name, str):
            found.setdefault(name, {}).setdefault(line, ast.unparse(value))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg:
                    note(keyword.arg, keyword.value.lineno, keyword.value)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                if default is not None:
                    for option in _declared_options(node):
                        note(option, node.lineno, default)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and value is not None:
                    note(key.value, value.lineno, value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                note(ast.unparse(target).rsplit(".", 1)[-1], node.lineno, node.value)
    return {name: sorted(lines.items()) for name, lines in found.items()}


def _declared_options(call: ast.Call) -> list[str]:
    """The option names an `add_argument(...)` call declares (its `dest`, its `--flags`)."""
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    dest = next((k.value.value for k in call.keywords if k.arg == "dest" and isinstance(k.value, ast.Constant)), None)
    names = [flag.lstrip("-").replace("-", "_") for flag in flags if flag.startswith("--")]
    return ([dest] if isinstance(dest, str) else []) + names


def names_read(path: str, line: int) -> list[str]:
    """The names a condition or expression at `line` reads, as options would be called: `x`,
    `args.x`, `cfg["x"]`, `self.cfg.x` all give "x" (the statement's own test, for an `if`)."""
    tree = _parse(path)
    if tree is None:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While)) and node.lineno == line:
            parts = ast.walk(node.test)
        elif isinstance(node, ast.stmt) and node.lineno == line and not hasattr(node, "body"):
            parts = ast.walk(node)
        else:
            continue
        found += [name for part in parts if isinstance(getattr(part, "ctx", ast.Load()), ast.Load)
                  and (name := _option_name(part)) is not None]
        break
    return list(dict.fromkeys(found))


def selector_strings(path: str, line: int) -> list[str]:
    """The string constants that pick the path through the statement at `line`: the key of the
    dict entry it is (`"relu": lambda: nn.ReLU(inplace=True)` in a registry), and those compared
    in the `if`/`elif` conditions around it (`if cfg.model == "byol":`)."""
    found = [text for first, last, strings in _selector_index(path) if first <= line <= last for text in strings]
    return list(dict.fromkeys(s for s in found if 1 < len(s) <= 60))


@functools.lru_cache(maxsize=64)
def _selector_index(path: str) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """(first line, last line, strings) for each dict entry of a string key (its value's lines)
    and each `if` whose test compares strings (the lines of its selected branch, after the
    test's line), in walk order: selector_strings from one walk of the file."""
    tree = _parse(path)
    if tree is None:
        return ()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and value is not None:
                    found.append((value.lineno, value.end_lineno or value.lineno, (key.value,)))
        elif isinstance(node, ast.If) and node.body:
            strings = tuple(constant.value for part in ast.walk(node.test) if isinstance(part, ast.Compare)
                            for operand in [part.left, *part.comparators] for constant in ast.walk(operand)
                            if isinstance(constant, ast.Constant) and isinstance(constant.value, str))
            body_end = max((n.end_lineno or n.lineno) for n in node.body)
            if strings:  # (in the branch the condition selects, not in its else)
                found.append((node.lineno + 1, min(body_end, node.end_lineno or node.lineno), strings))
    return tuple(found)


def string_settings(path: str, value: str, limit: int = 4, defaults: bool = False) -> list[int]:
    """Lines where the string `value` is set, not compared or looked up: a keyword argument
    (`default="byol"`, `activation="relu"`), a dict value (`{"activation": "relu"}`), an
    assignment (`MODEL = "byol"`), or an element of a list so set; with `defaults`, a function parameter's default too (which
    callers usually override)."""
    tree = _parse(path)
    if tree is None:
        return []

    def is_it(node) -> bool:
        return isinstance(node, ast.Constant) and node.value == value

    def holds(node):
        """The node that sets it: the constant itself, or the element of a list of them
        (`"monitor_layers": ["layer1", "layer2.1.bn2"]`)."""
        if is_it(node):
            return node
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return next((e for e in node.elts if is_it(e)), None)
        return None

    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg != "choices" and holds(node.value):
            found.add(holds(node.value).lineno)
        elif isinstance(node, ast.Dict):
            found.update(holds(v).lineno for v in node.values if v is not None and holds(v))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and holds(node.value):
            found.add(holds(node.value).lineno)
        elif defaults and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.update(d.lineno for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None and is_it(d))
    if not defaults:  # (a parameter default is no setting: drop the lines that are only that)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found -= {d.lineno for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None and is_it(d)}
    return sorted(found)[:limit]


def first_argument_name(path: str, line: int) -> str | None:
    """The name passed as the first argument of the call a statement makes (`params` in
    `optimizer = AdamW(params, lr=lr)`), or None where it passes an expression."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno == line and node.args and isinstance(node.args[0], ast.Name):
            return node.args[0].id
    return None


def called_function(path: str, line: int) -> str | None:
    """The plain function a statement's value calls (`build_optimizer` in `opt =
    build_optimizer(model, cfg)`); None for a method or a class (a capitalised name)."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno == line and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Name) and not func.id[:1].isupper():
                return func.id
    return None


def method_call_arguments(path: str, def_line: int, method: str) -> list[tuple[int, list[str]]]:
    """(line, [argument names, or "" for an expression]) of the calls of `.method(...)` in the
    function whose `def` is at `def_line` (`ctx.save_for_backward(ranks, kept)`)."""
    tree = _parse(path)
    function = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.lineno == def_line), None) if tree is not None else None
    found = []
    for node in ast.walk(function) if function is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method:
            found.append((node.lineno, [a.id if isinstance(a, ast.Name) else "" for a in node.args]))
    return sorted(found)


def method_def(path: str, name: str) -> int | None:
    """The first line of the first method `name` of any class in `path` (its first decorator)."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name:
                    return item.decorator_list[0].lineno if item.decorator_list else item.lineno
    return None


def function_def(path: str, name: str) -> int | None:
    """The first line of the module-level function `name` defined in `path` (its first decorator)."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node.decorator_list[0].lineno if node.decorator_list else node.lineno
    return None


def unpacked_argument(path: str, line: int, target: str) -> str | None:
    """For `self.model, self.optimizer = accelerator.prepare(model, optimizer)`, the name the call
    is given in the place of `target` (`optimizer`): a wrapper that hands back what it is given."""
    tree = _parse(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.lineno == line and isinstance(node.value, ast.Call) \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
            names = [ast.unparse(part) for part in node.targets[0].elts]
            args = node.value.args
            if target in names and len(args) == len(names) and isinstance(args[names.index(target)], ast.Name):
                return args[names.index(target)].id
    return None


def branch_implies(path: str, condition: int, line: int) -> dict[str, object]:
    """What the `if` at line `condition` having led to `line` says of the names it tests:
    {name: True/False} for a plain truth test (`if self.efficient and ...:` around the line: it
    was true), {name: ("==", value)} for a comparison with a constant. Names read as options are
    (see names_read): `x`, `args.x`, `cfg["x"]` all give "x". Empty where nothing follows."""
    tree = _parse(path)
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.If) and n.lineno == condition), None) if tree else None
    if node is None:
        return {}
    in_body = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.body)
    in_else = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.orelse)
    if in_body == in_else:
        return {}
    return _implied(node.test, in_body)


def branch_skipped_implies(path: str, condition: int) -> dict[str, object]:
    """What the `if` at line `condition` having been false says of the names it tests (its body
    skipped: `if self.state is None or not self.stateful:` says `stateful` was true)."""
    tree = _parse(path)
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.If) and n.lineno == condition), None) if tree else None
    return _implied(node.test, False) if node is not None else {}


def _implied(test, in_body: bool) -> dict[str, object]:
    # (true: every operand of an `and` held; false: every operand of an `or` failed)
    joiner = ast.And if in_body else ast.Or
    operands = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, joiner) else [test]
    found: dict[str, object] = {}
    for operand in operands:
        held = in_body
        if isinstance(operand, ast.UnaryOp) and isinstance(operand.op, ast.Not):
            operand, held = operand.operand, not held
        name = _option_name(operand)
        if name is not None:
            found[name] = held
        elif isinstance(operand, ast.Compare) and len(operand.ops) == 1 \
                and isinstance(operand.comparators[0], ast.Constant):
            # (`== value` held; `is None` held, or `is not None` failed: the value was None)
            op, value = operand.ops[0], operand.comparators[0].value
            equal = (held and isinstance(op, ast.Eq)) or (value is None and (
                (held and isinstance(op, ast.Is)) or (not held and isinstance(op, ast.IsNot))))
            name = _option_name(operand.left)
            if name is not None and equal:
                found[name] = ("==", value)
            elif name is not None and not held and isinstance(op, ast.Eq):
                found[name] = ("!=", value)  # (the `else` of `if mode == "bilinear":`)
    return found


def _option_name(node) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Name):
        return node.id
    return None


def function_applies(path: str, class_name: str, limit: int = 2) -> list[int]:
    """Lines that apply the custom autograd Function `class_name` (`CheckpointFunction.apply(...)`,
    or `fn = CheckpointFunction.apply` then `fn(...)` is not followed)."""
    tree = _parse(path)
    if tree is None:
        return []
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "apply"
                  and ast.unparse(node.func.value).rsplit(".", 1)[-1] == class_name)[:limit]


def calls_containing(path: str, word: str, limit: int = 4) -> list[tuple[int, str]]:
    """(line, callee) for calls whose function or method name holds `word`
    (`model.gradient_checkpointing_enable()` for "checkpointing")."""
    tree = _parse(path)
    if tree is None:
        return []
    found = sorted((node.lineno, name) for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and word in (name := ast.unparse(node.func).rsplit(".", 1)[-1]))
    return found[:limit]


def grad_off_returns(path: str, limit: int = 4) -> list[tuple[int, int, int]]:
    """(the decorator, the return, the statement that bound what it returns) for the functions of
    a file run under `@torch.no_grad()` (or inference_mode) that return a name they bound by
    indexing or slicing one of their arguments (`patches = volume[:, :, z:z + p]`): views of what
    they are given, handed out of a no-grad function."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        # (no_grad or inference_mode: `set_grad_enabled(...)` may turn it on)
        decorator = next((d for d in function.decorator_list
                          if any(word in ast.unparse(d) for word in ("no_grad", "inference_mode"))), None)
        if decorator is None:
            continue
        parameters = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
        for node in ast.walk(function):
            if not isinstance(node, ast.Return) or node.value is None:
                continue
            names = [e.id for e in (node.value.elts if isinstance(node.value, ast.Tuple) else [node.value])
                     if isinstance(e, ast.Name)]
            for statement in ast.walk(function):
                if isinstance(statement, ast.Assign) and statement.lineno < node.lineno and len(statement.targets) == 1 \
                        and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id in names[:1] \
                        and isinstance(statement.value, ast.Subscript) and isinstance(statement.value.value, ast.Name) \
                        and statement.value.value.id in parameters:
                    found.append((decorator.lineno, node.lineno, statement.lineno))
    return found[:limit]


def calls_in_function(path: str, first_line: int, name: str, limit: int = 2) -> list[int]:
    """Lines of the function starting at `first_line` that call `name` (`ctx.save_for_backward`)."""
    function = _function_at(path, first_line)
    if function is None:
        return []
    return sorted(node.lineno for node in ast.walk(function) if isinstance(node, ast.Call)
                  and ast.unparse(node.func).rsplit(".", 1)[-1] == name)[:limit]


def appended_into(path: str, line: int, limit: int = 8) -> list[tuple[int, str]]:
    """For a statement that builds a container from a list (`nn.Sequential(*modules)`,
    `nn.ModuleList(layers)`): (line, the callee) of the statements of its function, before it,
    that append a call's result to that list (`modules.append(nn.Linear(a, b))`,
    `modules.append(_ACTIVATIONS[name]())`, callee `_ACTIVATIONS[name]`)."""
    function = _enclosing_function(path, line)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return []
    given = [arg.value if isinstance(arg, ast.Starred) else arg
             for node in ast.walk(statement) if isinstance(node, ast.Call) for arg in node.args]
    lists = {arg.id for arg in given if isinstance(arg, ast.Name)}
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in lists and node.lineno < line \
                and node.args and isinstance(node.args[0], ast.Call):
            found.append((node.lineno, ast.unparse(node.args[0].func)))
    return sorted(found)[:limit]


def keyword_argument(path: str, line: int, keyword: str) -> tuple[str, list[tuple[int, str]]] | None:
    """The value a call in the statement at `line` passes as `keyword=`, as code, with, for a
    plain local name, its assignments earlier in the same function ((line, value), the last
    first): `reduction` and [(46, "'none'")] for `LabelSmoothingCrossEntropy(reduction=reduction)`
    two lines below `reduction = "none"`. None where no call there passes it."""
    function = _enclosing_function(path, line, or_module=True)
    statement = _statement_at(function, line) if function is not None else None
    if statement is None:
        return None
    # (of a compound statement, its own line: the `if`'s test, not the calls in its body)
    parts = [statement] if not hasattr(statement, "body") else \
        [getattr(statement, name) for name in ("test", "iter", "items") if getattr(statement, name, None) is not None]
    parts = [p for part in parts for p in (part if isinstance(part, list) else [part])]
    passed = next((k.value for part in parts for node in ast.walk(part) if isinstance(node, ast.Call)
                   for k in node.keywords if k.arg == keyword), None)
    if passed is None:
        return None
    assigned: list[tuple[int, str]] = []
    if isinstance(passed, ast.Name):
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and node.lineno < statement.lineno \
                    and any(isinstance(t, ast.Name) and t.id == passed.id for t in node.targets):
                assigned.append((node.lineno, ast.unparse(node.value)))
    return ast.unparse(passed), sorted(assigned, reverse=True)



def calls_passing(path: str, callee: str, keyword: str, limit: int = 4) -> list[int]:
    """Lines of calls `...callee(..., keyword=<anything>)` in the file (`nn.MSELoss(reduction=r)`)."""
    tree = _parse(path)
    if tree is None:
        return []
    return sorted({node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and ast.unparse(node.func).rsplit(".", 1)[-1] == callee
                   and any(k.arg == keyword for k in node.keywords)})[:limit]


def returned_element(path: str, line: int, index: int) -> str | None:
    """The element at `index` of the tuple the `return` at `line` returns, as written
    (`grad_input` for `return grad_input, grad_weight, None`); None where it is not such a return."""
    tree = _parse(path)
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.Return) and n.lineno == line), None) if tree else None
    if node is None or node.value is None:
        return None
    parts = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
    return ast.unparse(parts[index]) if 0 <= index < len(parts) else None


_HOOK_REGISTRATIONS = ("register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                       "register_full_backward_pre_hook", "register_backward_hook")


def hook_registrations(path: str, function: str, limit: int = 2) -> list[int]:
    """Lines of the file that register `function` as a module hook (`m.register_forward_hook(
    partial(self._hook_g, idx=idx))`, `register_forward_hook(save_output)`)."""
    tree = _parse(path)
    if tree is None:
        return []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _HOOK_REGISTRATIONS \
                and node.args and any((isinstance(part, ast.Name) and part.id == function)
                                      or (isinstance(part, ast.Attribute) and part.attr == function)
                                      for part in ast.walk(node.args[0])):
            found.add(node.lineno)
    return sorted(found)[:limit]


def name_chains_without_else(path: str, limit: int = 4) -> list[tuple[int, list[tuple[str, str]]]]:
    """In functions that go over `named_parameters()`: the `if`/`elif` chains that test the name
    against strings and end without an `else` (a parameter that matches none goes nowhere):
    (the line of the last test, [(how, string)] for every name test of the chain, how being
    "startswith", "endswith" or "in")."""
    tree = _parse(path)
    if tree is None:
        return []
    found = []
    for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        if not any(isinstance(n, ast.Attribute) and n.attr == "named_parameters" for n in ast.walk(function)):
            continue
        inner = {id(n.orelse[0]) for n in ast.walk(function) if isinstance(n, ast.If) and len(n.orelse) == 1
                 and isinstance(n.orelse[0], ast.If)}
        for head in (n for n in ast.walk(function) if isinstance(n, ast.If) and id(n) not in inner):
            chain, node = [head], head
            while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                chain.append(node)
            if node.orelse or len(chain) < 2:
                continue
            tests = []
            for branch in chain:
                for part in ast.walk(branch.test):
                    if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) \
                            and part.func.attr in ("startswith", "endswith") and part.args \
                            and isinstance(part.args[0], ast.Constant) and isinstance(part.args[0].value, str):
                        tests.append((part.func.attr, part.args[0].value))
                    elif isinstance(part, ast.Compare) and isinstance(part.left, ast.Constant) \
                            and isinstance(part.left.value, str) and isinstance(part.ops[0], ast.In):
                        tests.append(("in", part.left.value))
            if tests:
                found.append((chain[-1].lineno, tests))
    return sorted(found)[:limit]
