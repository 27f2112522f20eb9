"""How to say where a value lost its connection to the graph (shared by several rules)."""

from __future__ import annotations

import re

from ..analyses.settings import inference_mode_options, library_entry, option_set, options_read, setting_readers
from ..trace.findings import Location
from ..trace.locations import Site, is_library_path, source_line, user_site
from ..trace.model import GraphCut, Trace
from ..trace.queries import accumulates_into, project_files
from ..trace.source_search import (
    GRAD_OFF_WORDS,
    branch_implies,
    enclosing_condition,
    same_function,
    enclosing_block,
    enclosing_class,
    keyword_settings,
)
from ._words import op_words, where

_HOW = {
    "no_grad": "ran with gradient tracking off",
    "inference_mode": "ran under torch.inference_mode()",
    "detach": "called `.detach()`, which returns a tensor with no graph",
    "data": "read `.data`, which returns the values without their graph",
    "copy": "copied the values into a new tensor with `{op}(...)`, which keeps no history",
    "integer": "computed {op_words}, whose integer result carries no gradient",
    "grad_result": "called torch.autograd.grad without create_graph=True, so the gradients it "
                   "returned are constants to autograd",
    "other": "computed {op_words}, whose result does not require grad",
    "number": "read a Python number from a tensor that had a graph, with {number_call}",
}

_NUMBER_CALLS = {"item": "`.item()`", "__float__": "`float()`"}

NUMBER_FIX = ("Keep the term a tensor (no `.item()`, `float()` or `.detach()` on the way to the loss); "
              "call `.item()` only on the value you log.")

_FIX = {
    "no_grad": "Compute what you backpropagate outside `torch.no_grad()`: that block is for "
               "evaluation and parameter updates only.",
    "inference_mode": "Compute what you backpropagate outside `torch.inference_mode()`.",
    "detach": "Remove the `.detach()` on the way to the loss; detach only what must not be trained "
              "(logged values, a hidden state carried between sequences).",
    "data": "Use the tensor itself instead of `.data`.",
    "copy": "Use the tensor itself (combine tensors with `torch.stack`/`torch.cat`); `torch.tensor(...)` "
            "is for Python data and always starts a new, untracked tensor.",
    "integer": "argmax, rounding, comparisons and integer casts have no gradient. Train on a "
               "differentiable quantity instead (e.g. cross_entropy on the logits rather than their argmax).",
    "grad_result": "Pass create_graph=True to the first torch.autograd.grad call to differentiate its result again.",
    "other": "Keep the computation in differentiable torch ops.",
    "number": NUMBER_FIX,
}


def block_around(site: Site | None, words=GRAD_OFF_WORDS) -> Site | None:
    """The `with torch.no_grad():` (or decorated function) a site ran in: around its own line, or
    around one of the user calls that led to it (a `@torch.inference_mode()` helper that called
    the model), innermost first."""
    found = _block_and_frame(site, words)
    return found[0] if found else None


def _block_and_frame(site: Site | None, words=GRAD_OFF_WORDS) -> tuple[Site, Site] | None:
    """The block (as block_around), and the frame of the chain that runs inside it."""
    if site is None:
        return None
    for frame in (site, *reversed(site.callers)):
        line = enclosing_block(frame.path, frame.line, words)
        if line is not None:
            return Site(frame.path, line), frame
    return None


def grad_off_site(cut: GraphCut) -> Site | None:
    """The `with torch.no_grad():` (or decorator, or library call) that turned tracking off."""
    return block_around(cut.site) or cut.grad_off_site


_GRAD_OFF_CALL = re.compile(r"(?:torch\.(?:autograd\.(?:grad_mode\.)?)?)?(no_grad|set_grad_enabled|inference_mode)\s*\(([^()]*)\)")


def block_words(block: Site | None, default: str = "torch.no_grad()") -> str:
    """The construct a `with` line (or decorator) used, as written: `torch.set_grad_enabled(False)`
    reads as that, not as "torch.no_grad()"."""
    found = _GRAD_OFF_CALL.search(source_line(block.path, block.line)) if block is not None else None
    if found is None:
        return default
    return f"torch.{found.group(1)}({found.group(2).strip()})"


def how(cut: GraphCut) -> str:
    text = _HOW.get(cut.reason, _HOW["other"]).format(op=cut.op, op_words=op_words(cut.op),
                                                      number_call=_NUMBER_CALLS.get(cut.op, op_words(cut.op)))
    if cut.reason == "no_grad":
        block = grad_off_site(cut)
        if cut.grad_off_via and "checkpoint" in cut.grad_off_via:
            text += f" (a reentrant torch.utils.checkpoint at {where(cut.grad_off_site)} runs its forward under no_grad)"
        elif block is not None:
            text += f" (inside the {block_words(block)} opened at {where(block)})"
    elif cut.reason == "inference_mode":
        block = grad_off_site(cut)
        if block is not None:
            text += f" (opened at {where(block)})"
    return text


def sentence(cut: GraphCut) -> str:
    text = f"the graph was cut at {where(cut.site)}, which {how(cut)}"
    found = setting(cut)
    if found is not None:
        text += f" (with the `{found[1]}` given at {where(found[0])})"
    return text


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def setting(cut: GraphCut) -> tuple[Site, str] | None:
    """The option a user set that made the cut happen: a keyword named on the cut's line, given
    a constant where a class on the way to it is built (`DiceLoss(threshold=0.5)` for
    `(x > threshold).type(x.dtype)` inside its forward). None where no such setting is written."""
    return setting_for(cut.site)


def setting_for(site: Site | None) -> tuple[Site, str] | None:
    """The option a user set that takes the path through `site` (see setting)."""
    if site is None:
        return None
    words = {w for w in _WORD.findall(site.code) if len(w) > 2} - _NOT_SETTINGS
    frames = (site, *reversed(site.callers))
    paths = list(dict.fromkeys(frame.path for frame in reversed(frames)))  # outermost file first
    for frame in frames:
        name = enclosing_class(frame.path, frame.line)
        if name is None:
            continue
        for path in paths:
            for line, written in keyword_settings(path, name, words):
                return Site(path, line), written
    return None


_NOT_SETTINGS = frozenset({"self", "return", "torch", "type", "dtype", "device", "detach", "data", "float",
                           "int", "long", "bool", "item", "tensor", "not", "and", "for", "with", "lambda"})


def decorated_caller(cut: GraphCut) -> tuple[Site | None, Site | None]:
    """A function decorated with no_grad that calls out to the code that made the cut (an
    optimizer's step running the closure it is given): (its decorator, the call inside it)."""
    found = _block_and_frame(cut.site)
    if found is None:
        return None, None
    block, frame = found
    if frame is not cut.site and source_line(block.path, block.line).startswith("@") \
            and not is_library_path(frame.path):
        return block, frame
    return block, None


def fix(cut: GraphCut) -> str:
    if cut.reason in ("no_grad", "inference_mode"):
        block, call = decorated_caller(cut)
        if call is not None and call.function == "forward":
            return (f"The forward decorated at {where(block)} runs with gradient tracking off, so the module's "
                    "output has no graph and its parameters get no gradient. Remove the decorator where the module "
                    "trains (keep `torch.no_grad()` only around calls of a frozen module).")
        if call is not None:
            return (f"The function decorated at {where(block)} runs with gradient tracking off, and so does the "
                    f"code it calls at {where(call)}. Wrap that call in `with torch.enable_grad():` (torch's own "
                    "optimizers run the closure so), or compute the loss outside the decorated function.")
        switched = _switched_for_good(cut) if block is None else None
        if switched is not None:
            return (f"`set_grad_enabled(...)` at {where(switched)} switched gradient tracking off for the rest of the "
                    "thread, not for a block, and nothing switched it back on before this loss was computed. Use "
                    "`with torch.no_grad():` (or `with torch.set_grad_enabled(...):`) around the evaluation only.")
    if cut.reason == "no_grad" and cut.grad_off_via and "checkpoint" in cut.grad_off_via:
        return ("Pass use_reentrant=False to torch.utils.checkpoint (or make an input require grad, "
                "e.g. model.enable_input_require_grads()).")
    text = _FIX.get(cut.reason, _FIX["other"])
    option = setting(cut)
    if option is not None:
        text += (f" If `{option[1]}` at {where(option[0])} is what takes that path, leave it out where "
                 "the result is trained on (keep it for evaluation).")
    return text


def fix_site(cut: GraphCut) -> tuple[Site, str] | None:
    """The line to change for a cut, and why that line: the option that takes the cutting path;
    the `with torch.no_grad():` (or decorator) the user wrote around it; the checkpoint call that
    runs it under no_grad; the user's call into library code that switched tracking off (a
    `generate()`); else the cutting line itself (`.detach()`, `.item()`, `torch.tensor(t)`)."""
    option = setting(cut)
    if option is not None:
        return option[0], f"`{option[1]}` takes the path that cuts the graph at {where(cut.site)}"
    site = user_site(cut.site)
    if cut.reason == "no_grad" and cut.grad_off_via and "checkpoint" in cut.grad_off_via:
        call = user_site(cut.grad_off_site)
        return (call, "a reentrant checkpoint runs its function under no_grad: pass use_reentrant=False here") \
            if call is not None else None
    if cut.reason in ("no_grad", "inference_mode"):
        block, frame = decorated_caller(cut)
        if frame is not None and frame.function == "forward":
            # A module's forward decorated to run without grad: nothing it computes trains
            # (an optimizer's `step` decorated so is torch's own idiom; a forward is not).
            return block, (f"{block_words(block)} on this forward switches gradient tracking off for everything "
                           "it computes, so what it trains gets no gradient: remove it (or apply it only while "
                           "the module is frozen)")
        if frame is not None:
            return frame, (f"runs {op_words(cut.op)} at {where(cut.site)} inside the {block_words(block)} of the "
                           f"function decorated at {where(block)}: wrap this call in `with torch.enable_grad():`")
        switched = _switched_for_good(cut) if block is None else None
        if switched is not None:
            # (a bare call, not a `with` block: tracking stays off after the function that made it returns)
            return switched, ("switches gradient tracking off for the whole thread, not for a block: it stays off "
                              "for everything that runs after it, the next training forward included; use "
                              "`with torch.no_grad():` around the evaluation instead (or switch it back on)")
        block = block or block_around(cut.site)
        if block is not None and not is_library_path(block.path):
            return block, (f"{block_words(block)} here switches gradient tracking off for {op_words(cut.op)} at "
                           f"{where(cut.site)}, whose result is trained on: compute that outside it")
        if site is not None and site != cut.site:
            return site, ("this call into library code runs under "
                          f"{'torch.inference_mode()' if cut.reason == 'inference_mode' else 'no_grad'} there, so "
                          "what it returns has no graph: compute what you train on with a call that keeps the graph")
        return None
    if site is None:
        return None
    words = _CUT_HERE.get(cut.reason, _CUT_HERE["other"]).format(
        op=cut.op, op_words=op_words(cut.op), number_call=_NUMBER_CALLS.get(cut.op, op_words(cut.op)))
    return site, f"{words}: what is trained on loses its graph at this line"


_SWITCHES_FOR_GOOD = re.compile(r"\s*(torch\.)?(autograd\.)?(set_grad_enabled|grad_mode\.set_grad_enabled)\(")


def _switched_for_good(cut: GraphCut) -> Site | None:
    """The program's bare `torch.set_grad_enabled(False)` call (not a `with` block) that switched
    tracking off for the cut, if that is what did."""
    switched = user_site(cut.grad_off_site)
    if switched is None or is_library_path(switched.path) \
            or not _SWITCHES_FOR_GOOD.match(source_line(switched.path, switched.line)):
        return None
    return switched

_CUT_HERE = {
    "detach": "`.detach()` here returns a tensor with no graph",
    "data": "`.data` here returns the values without their graph",
    "copy": "`{op}(...)` here copies the values into a new tensor with no history",
    "integer": "{op_words} here has no gradient",
    "grad_result": "torch.autograd.grad here returns constants (no create_graph=True)",
    "number": "{number_call} here turns the tensor into a Python number",
    "other": "{op_words} here returns a result that does not require grad",
}


def locations(trace: Trace, cut: GraphCut) -> list[Location]:
    found = [Location.at(cut.site, "cut", f"graph cut: {cut.reason.replace('_', ' ')}")]
    option = setting(cut)
    if option is not None:
        found.append(Location.at(option[0], "setting", f"`{option[1]}` takes the path that cuts"))
    if cut.reason in ("no_grad", "inference_mode"):
        block = grad_off_site(cut)
        if block is not None and block != cut.site:
            found.append(Location.at(block, "no-grad-block", "gradient tracking switched off"))
    first = trace.node(cut.input_node)
    node = _made_before_line(trace, first, cut.site)
    leaf = trace.leaf(cut.input_leaf)
    if node is not None and node.site is not None and not _same_call(node.site, cut.site):
        found.append(Location.at(node.site, "cut-input", "last value that required grad" if node is first
                                 else f"computes the value cut at line {cut.site.line}"))
    elif leaf is not None and leaf.site is not None and leaf.site != cut.site:
        found.append(Location.at(leaf.site, "cut-input", "leaf that required grad"))
    return [loc for loc in found if loc is not None]


def _same_call(a: Site, b: Site) -> bool:
    """The same line reached by the same calls (a helper's line run from two call sites is two),
    as far as both know their callers (an op's node keeps its line only)."""
    def nearest_call(site: Site):  # (the innermost caller on another line: a comprehension's frame aside)
        return next(((c.path, c.line) for c in reversed(site.callers) if (c.path, c.line) != (site.path, site.line)),
                    None)
    return a == b and (nearest_call(a) is None or nearest_call(b) is None or nearest_call(a) == nearest_call(b))


def _made_before_line(trace: Trace, node, line_site, limit: int = 8):
    """`node`, or, when it was made on the cut's own line (`pred[:, i].clone().detach()`), the
    first op up its first inputs made on another line: where the value cut there was computed."""
    for _ in range(limit):
        if node is None or line_site is None or node.site is None or not _same_call(node.site, line_site) \
                or not node.next_ids:
            return node
        node = trace.node(node.next_ids[0])
    return node


def mark_fix_sites(finding, trace: Trace, cut: GraphCut) -> bool:
    """Mark the lines to change for a cut (see fix_site); whether `fix_site` had one."""
    if cut.reason == "no_grad" and cut.grad_off_via and "checkpoint" in cut.grad_off_via:
        # (the freezes before it: why the checkpointed input required no grad)
        for freeze in [f for f in trace.freezes if f.seq < cut.seq and f.site is not None][:2]:
            finding.add(Location.at(freeze.site, "frozen", "frozen before the checkpoint: what it passes in then "
                                                           "requires no grad"))
        # Where the program sets use_reentrant (a config entry passed down to the library's
        # checkpoint call) is the line to change, before the call it reaches.
        # (the same detached before it, in the forward that ran the checkpoint: a frozen stem)
        # (in the function that makes the checkpoint call, or one it calls: what it detaches is
        # what it passes in; not a target detached elsewhere)
        called = user_site(cut.grad_off_site)

        def near_the_call(site) -> bool:
            return called is not None and site is not None and any(
                frame.path == called.path and same_function(called.path, frame.line, called.line)
                for frame in (site, *site.callers))
        detached = [c for c in trace.cuts.values() if c.reason in ("detach", "data") and c.seq < cut.seq
                    and c.backwards_before == cut.backwards_before and user_site(c.site) is not None
                    and near_the_call(user_site(c.site))]
        files = project_files(trace)
        for place, value in option_set(files, "use_reentrant", unless=("False",)):
            # (given by an option, `use_reentrant=cfg["checkpoint_use_reentrant"]`: where it is set)
            origins = [] if value in ("True", "None") else options_read(place, files, accept=lambda v: v == "True")
            for setting, name, _ in _left_unset(place, files):
                # (a default, `if kwargs is None: kwargs = {"use_reentrant": True}`, taken because the
                # program's own setting was None: that setting is the line to change)
                finding.mark_fix(setting, f"sets `{name}` to None, so the default at {where(place)} applies: "
                                          "use_reentrant=True; give it {\"use_reentrant\": False}")
                for reader, key in setting_readers(setting, files, "None")[:1]:
                    finding.add(Location.at(reader, "used", f"hands `{key}` on to the code it configures"))
            for origin, name, _ in origins or [(place, "use_reentrant", value)]:
                finding.mark_fix(origin, f"sets {name}={value if origin is place else 'True'}: reentrant "
                                         "checkpointing runs the checkpointed code under no_grad, so inputs that do "
                                         "not require grad give outputs without a graph; set it to False")
        for other in sorted(detached, key=lambda c: c.seq)[-1:]:
            finding.add(Location.at(user_site(other.site), "cut", "detached before the checkpoint: what it passes in "
                                                                  "then requires no grad"))
            finding.mark_fix(user_site(other.site), "or keep the graph here, so the checkpointed input requires grad")
    inside = _call_inside_block(cut)
    if inside is not None:
        finding.mark_fix(*inside)
    marked = fix_site(cut)
    if marked is not None:
        finding.mark_fix(*marked)
    return marked is not None or inside is not None


def _left_unset(place: Site, files: list[str]) -> list[tuple[Site, str, str]]:
    """(where it is set, the option, "None") for the options whose None took the `if x is None:`
    branch that `place` (a default value) is in."""
    condition = enclosing_condition(place.path, place.line)
    if condition is None:
        return []
    implied = {name: v for name, v in branch_implies(place.path, condition, place.line).items() if v == ("==", None)}
    if not implied:
        return []
    return options_read(Site(place.path, condition), files, accept=lambda v: v == "None", expect=implied)


def _call_inside_block(cut: GraphCut) -> tuple[Site, str] | None:
    """For a cut made under no_grad inside a function that a statement in the user's `with
    torch.no_grad():` block called (a helper used with grad elsewhere too): that statement,
    which is the one to move out of the block."""
    if cut.reason not in ("no_grad", "inference_mode") or (cut.grad_off_via and "checkpoint" in cut.grad_off_via):
        return None
    found = _block_and_frame(cut.site)
    here = user_site(cut.site)
    if found is None or here is None or is_library_path(found[0].path):
        return None
    block, frame = found
    if (frame.path, frame.line) == (here.path, here.line) or source_line(block.path, block.line).lstrip().startswith("@"):
        return None
    return frame, (f"calls, inside the {block_words(block)} opened at {where(block)}, the code whose result loses "
                   f"its graph at {where(cut.site)}: move this call out of the block")


def name_cut(finding, trace: Trace, cut: GraphCut | None) -> str | None:
    """Add a cut's lines to a finding, and mark its fix site (see fix_site). Returns the fix text
    when the line marked is one `fix(cut)` does not speak of (a library's option)."""
    if cut is None:
        return None
    for location in locations(trace, cut):
        finding.add(location)
    if not mark_fix_sites(finding, trace, cut) and cut.reason == "inference_mode" and block_around(cut.site, ("inference_mode",)) is None:
        # Inference mode entered by library code the program called into (an evaluation loop):
        # the library object's option is the line to change.
        entered = library_entry(cut.site)
        if entered is not None:
            finding.add(Location.at(entered, "mode", "calls into library code that runs this under inference_mode"))
            options = inference_mode_options(project_files(trace))
            for site, constructor, option in options:
                finding.mark_fix(site, f"builds the {constructor} whose loop runs {where(entered)} under "
                                       f"torch.inference_mode() (its default): pass `{option}`")
            if options:
                return (f"Build the {options[0][1]} with `{options[0][2]}`: its loop then runs this code under "
                        "torch.no_grad(), which `torch.enable_grad()` inside can undo (inference mode it cannot).")
    return None


def cut_behind(trace: Trace, module: str | None, leaves: list[int]) -> GraphCut | None:
    """The cut that keeps `module`'s parameters (`leaves`) from a loss, the latest first: one
    made inside the module, or of a value the module computed; failing that, a cut of a
    parameter itself (`.detach()` of a weight: a snapshot, or an initialisation through `.data`,
    says less, so it comes last)."""
    cuts = sorted(trace.cuts.values(), key=lambda c: -c.seq)
    wanted = set(leaves)
    of_their_values = (c for c in cuts if accumulates_into(trace, c.input_node, wanted, limit=200))
    if any(wanted & set(node.leaf_ids) for node in trace.nodes.values() if node.leaf_ids):
        # A graph was built from them with grad on: the cut is downstream of it, where a value
        # computed from them stopped being tracked (a no-grad evaluation of the module is not it):
        # a value re-made as a new leaf that a backward then reached, or one computed from them.
        # (Revivals are kept once per line: a later iteration's leaf made on that line tells the same.)
        backpropagated = {lid for node in trace.nodes.values() if node.ran_by is not None for lid in node.leaf_ids}
        lines = {(leaf.site.path, leaf.site.line) for lid in backpropagated
                 if (leaf := trace.leaf(lid)) is not None and leaf.site is not None}
        revived = {r.cut for r in trace.revivals
                   if r.leaf in backpropagated or (r.site is not None and (r.site.path, r.site.line) in lines)}
        return next((c for c in cuts if c.id in revived), None) or next(of_their_values, None)
    return next((c for c in cuts if _inside(module, c.module) or _inside(module, _module_path(trace, c.input_node))),
                None) or next(of_their_values, None) or next((c for c in cuts if c.input_leaf in leaves), None)


def _inside(module: str | None, path: str | None) -> bool:
    return bool(module) and path is not None and (path == module or path.startswith(module + "."))


def _module_path(trace: Trace, node_id: int | None) -> str | None:
    node = trace.node(node_id)
    call = trace.module_calls.get(node.module_call) if node and node.module_call is not None else None
    return call.name if call else None


def freezes_before(trace: Trace, call) -> list:
    """The `requires_grad=False` lines run before a backward call (once per line, as recorded):
    where what the call needs stopped being tracked."""
    return [freeze for freeze in trace.freezes if freeze.seq < call.seq and freeze.site is not None]
