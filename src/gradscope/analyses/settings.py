"""Settings: where the value that picks the failing path was set.

A fix site inside a registry entry (`"relu": lambda: nn.ReLU(inplace=True)`) or a branch
(`if cfg.model == "byol":`) runs because some value chose it: a config dict, an argparse default,
a keyword argument. Found in the program's own files, by the string that selects the path; named
only where few places set it (a string set everywhere says nothing).
"""

from __future__ import annotations

import ast

from ..trace.call_sites import argument_given
from ..trace.locations import Site, is_library_path, source_line
from ..trace.model import Trace
from ..trace.registry_search import registry_keys, tables_naming
from ..trace.setting_search import key_reads, keys_around
from ..trace.source_search import (
    calls_named,
    counters,
    enclosing_class,
    branch_implies,
    branch_skipped_implies,
    enclosing_condition,
    enclosing_function_name,
    guard_conditions,
    imported_modules,
    names_read,
    option_settings,
    selector_strings,
    string_settings,
)

MAX_PLACES = 2


def settings_for(site: Site, files: list[str]) -> list[tuple[Site, str]]:
    """(where it is set, the value) for the strings that select the path through `site`, or
    through one of the user's calls that led there (a dispatch `if self.model == "byol":`)."""
    found: list[tuple[Site, str]] = []
    # The frames that led there, and the lines of the same file that call its function (a
    # method called by a dispatch in the same class: frames inside a module's forward are not
    # all recorded).
    calling = [Site(site.path, line) for line in calls_named(site.path, site.function)] if site.function else []
    for frame in (site, *reversed(site.callers), *calling):
        for value in selector_strings(frame.path, frame.line):
            places = [Site(path, line) for path in files for line in string_settings(path, value)
                      if (path, line) != (frame.path, frame.line)]
            if 0 < len(places) <= MAX_PLACES:
                found += [(place, value) for place in places if (place, value) not in found]
    return found[:MAX_PLACES + 1]


def branch_options(site: Site, files: list[str]) -> list[tuple[Site, str, str]]:
    """(where it is set, the option, the value) for the options read by the `if` that the line
    (or, failing that, the nearest of its callers) runs in: `if args.grad_checkpointing:` around
    the checkpoint call, set by an argparse default."""
    for frame in [site, *reversed(site.callers)][:3]:
        if frame.path.startswith("<") or is_library_path(frame.path):
            continue
        condition = enclosing_condition(frame.path, frame.line)
        if condition is not None:
            # (the branch ran: of the values set, only those that take it can have chosen it)
            implied = branch_implies(frame.path, condition, frame.line)
            # (a private attribute is the program's own state, a counter: not an option)
            return [found for found in options_read(Site(frame.path, condition), files, expect=implied)
                    if not found[1].startswith("_")][:MAX_PLACES]
    return []


def guard_options(site: Site, files: list[str]) -> list[tuple[Site, str, str, int]]:
    """(where it is set, the option, the value, the guard's line) for the options read by an
    early exit before the line (`if self.config["head_type"] == "pretraining": return ...`):
    set otherwise, the guard let the run reach the line."""
    if site.path.startswith("<") or is_library_path(site.path):
        return []
    found = []
    for guard in guard_conditions(site.path, site.line):
        # (the run got past it: what the guard's failing says of its options, `mode != "bilinear"`)
        found += [(*option, guard) for option in options_read(Site(site.path, guard), files,
                                                              expect=branch_skipped_implies(site.path, guard))
                  if not option[1].startswith("_")]
    return found[:MAX_PLACES]


def registry_settings(site: Site, class_names: set[str], files: list[str]) -> list[tuple[Site, str, str, str]]:
    """(where it is set, the key, the class, the table) for the name-to-class tables the line
    looks up (or a helper it calls does) whose key for a class that ran there is set, as a
    string, in few places of the program (`"activate": "relu"` picking `ReLU` from
    `activate_name`)."""
    if site.path.startswith("<") or is_library_path(site.path):
        return []
    pairs = [(class_name, entry) for class_name in sorted(class_names)
             for entry in registry_keys(site.path, site.line, class_name, tuple(files))]
    # (a line in a method of a class the program picks by name: the key, wherever it is looked up)
    owner = enclosing_class(site.path, site.line)
    if owner is not None and not pairs:
        pairs = [(owner, entry) for entry in tables_naming(owner, tuple(files))]
    found = []
    for class_name, (table, key) in pairs:
        places = [Site(path, line) for path in files for line in string_settings(path, key)]
        if 0 < len(places) <= MAX_PLACES:
            found += [(place, key, class_name, table) for place in places]
    return found[:MAX_PLACES]


def setting_readers(setting: Site, files: list[str], value: str | None = None) -> list[tuple[Site, str]]:
    """(where it is read, the key) for a configuration entry: the statements that read the
    entry's key, or the key of the entry around it (`cfg["gradient_checkpointing_kwargs"]` for
    `"use_reentrant": True` inside it), the innermost key that few statements read."""
    for key in keys_around(setting.path, setting.line, value)[:3]:
        places = [Site(path, line) for path in files for line in key_reads(path, key)
                  if (path, line) != (setting.path, setting.line)]
        if 0 < len(places) <= 2:
            return [(place, key) for place in places]
    return []


def option_set(files: list[str], name: str, unless: tuple[str, ...] = ()) -> list[tuple[Site, str]]:
    """(where, the value) for the places in the program's files that set the option `name` to a
    value other than those in `unless` (`use_reentrant` set to anything but False); only where
    few places do (one set in many places says nothing about which one ran)."""
    places = [(Site(path, line), value) for path in files for line, value in option_settings(path, name)
              if value not in unless]
    return places if 0 < len(places) <= MAX_PLACES else []


def options_read(site: Site, files: list[str], accept=None, expect: dict | None = None) -> list[tuple[Site, str, str]]:
    """(where it is set, the option's name, the value) for the options the statement at `site`
    reads (`if (step + 1) % args.accumulation_steps == 0:` reads `accumulation_steps`), set to a
    literal value (an argparse default, a config entry, a constant) in few places; `accept`:
    which values count (a number, string or bool by default); `expect`: what the run says of a
    name's value (see branch_implies), which drops the places that set another."""
    accept = accept or _is_literal
    found: list[tuple[Site, str, str]] = []
    names = [name for name in _with_arguments(site, names_read(site.path, site.line), files)
             if name not in counters(site.path) and name not in _STATE_ATTRIBUTES]
    seen = set(names)
    for depth in range(3):
        derived: list[str] = []
        for name in names:
            settings = [(Site(path, line), name, value) for path in files for line, value in option_settings(path, name)
                        if (path, line) != (site.path, site.line)]
            places = [setting for setting in settings if accept(setting[2])
                      and (depth > 0 or _agrees(setting[2], (expect or {}).get(name)))]
            if _flipped_at_run_time(places):
                continue  # (state: `self.applied = True` in a method, after `= False` in __init__)
            if 0 < len(places) <= MAX_PLACES:
                found += places
            elif not places and depth < 2:
                # (a value computed from others in the line's own file: `self.n_targets =
                # len(self.target_names)`, `self.target_names = hparams["target"]`: the options
                # it is computed from)
                derived += [other for setting in settings if setting[0].path == site.path
                            for other in _names_in(setting[2]) if other not in seen]
        if not derived:
            break
        names = list(dict.fromkeys(derived))
        seen.update(names)
    return found


def _agrees(value: str, expected) -> bool:
    """Whether a value written as `value` agrees with what the run says of it (True/False: its
    truth; ("==", v): equal to v; None: nothing said)."""
    if expected is None:
        return True
    try:
        found = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return True  # (not a literal: nothing to compare)
    if isinstance(expected, tuple):
        return found != expected[1] if expected[0] == "!=" else found == expected[1]
    return bool(found) == expected


def _flipped_at_run_time(places: list[tuple[Site, str, str]]) -> bool:
    """Whether a name is set to different values, one of them by an object on itself in a
    method other than `__init__` (`self.applied = True`): the program's own state, flipped as
    it runs, not an option."""
    return len({value for _, _, value in places}) > 1 and any(
        source_line(site.path, site.line).lstrip().startswith(f"self.{name} ")
        and enclosing_function_name(site.path, site.line) not in (None, "__init__") for site, name, _ in places)


# Attributes of tensors and modules that a condition reads as state, not options
# (`if self.efficient and x.requires_grad:`).
_STATE_ATTRIBUTES = frozenset({"requires_grad", "training", "shape", "is_leaf", "grad", "grad_fn", "ndim",
                               "is_cuda"})

_NOT_OPTIONS = frozenset({"self", "len", "isinstance", "list", "tuple", "dict", "int", "float", "str", "bool",
                          "min", "max", "sum", "getattr", "get", "range"})


def _names_in(expression: str) -> list[str]:
    """The names an expression reads, as options would be called (see names_read)."""
    try:
        tree = ast.parse(expression, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    found = []
    for part in ast.walk(tree):
        if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Load):
            found.append(part.attr)
        elif isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant) \
                and isinstance(part.slice.value, str):
            found.append(part.slice.value)
        elif isinstance(part, ast.Name):
            found.append(part.id)
    return [name for name in dict.fromkeys(found) if name not in _NOT_OPTIONS]


def _with_arguments(site: Site, names: list[str], files: list[str]) -> list[str]:
    """`names`, and for each that is a parameter of the line's function, the names the only
    call of it passes for it (`prefixes` given `CONFIG["trainable_prefixes"]`)."""
    found = list(names)
    for name in names:
        given = argument_given(site.path, site.line, name, files)
        if given is not None:
            found += [part.attr if isinstance(part, ast.Attribute) else part.slice.value
                      if isinstance(part, ast.Subscript) else part.id for part in ast.walk(given[2])
                      if isinstance(part, ast.Attribute) or isinstance(part, ast.Name)
                      or (isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant)
                          and isinstance(part.slice.value, str))]
    return list(dict.fromkeys(found))


def _is_literal(value: str) -> bool:
    """A number, string or bool written as such, or a short list of them (`["load", "price"]`);
    not a whole config dict, not a call."""
    try:
        found = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    if isinstance(found, (list, tuple)) and 0 < len(found) <= 8:
        return all(isinstance(item, (int, float, str)) or item is None for item in found)
    return isinstance(found, (int, float, str))


def name_patterns(value: str) -> tuple[str, ...] | None:
    """The strings of a value written as a string or a list/tuple/set of strings
    (`("classifier",)`, `["bias", "LayerNorm.weight"]`): names a program selects things by."""
    try:
        found = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    found = (found,) if isinstance(found, str) else found
    if isinstance(found, (list, tuple, set)) and found and all(isinstance(s, str) and s for s in found):
        return tuple(found)
    return None


def matches_no_parameter(trace: Trace, patterns: tuple[str, ...]) -> list[str] | None:
    """Some of the model's parameter names, when none of them holds any of `patterns` (a list of
    prefixes meant to pick the head, written for another model's names); None when one does, or
    when no parameter's name is known."""
    names = [leaf.name for leaf in trace.leaves.values() if leaf.name]
    if not names or any(pattern in name for pattern in patterns for name in names):
        return None
    return sorted({name.split(".", 1)[0] for name in names})[:6]


# Library objects whose evaluation loops run the user's code under torch.inference_mode() unless
# built with an option: (modules that import the library, the constructor, the option to pass).
INFERENCE_MODE_OPTIONS = [({"lightning", "pytorch_lightning", "lightning.pytorch"}, "Trainer", "inference_mode=False")]


def inference_mode_options(files: list[str]) -> list[tuple[Site, str, str]]:
    """(the constructor call, its name, the option) for the library objects in the program's
    files that run evaluation under inference mode by default (`L.Trainer(...)`)."""
    found = []
    for path in files:
        imported = imported_modules(path)
        for libraries, constructor, option in INFERENCE_MODE_OPTIONS:
            if imported & libraries:
                found += [(Site(path, line), constructor, option) for line in calls_named(path, constructor)]
    return found[:MAX_PLACES]


def library_entry(site: Site | None) -> Site | None:
    """The user's call that went into library code on the way to `site` (`trainer.validate(...)`,
    which runs `validation_step`): the first frame, going in, whose next frame it does not call
    itself."""
    frames = [*site.callers, site] if site is not None else []
    for outer, inner in zip(frames, frames[1:]):
        if inner.function and outer.line not in calls_named(outer.path, inner.function, limit=64):
            return outer
    return None
