"""Optimizer facts: the steps (and the parameters each wrote), and silent gradient hazards
looked at once per step, never per op: gradients never reset, non-finite, never computed, or
computed for parameters no optimizer holds."""

from __future__ import annotations

import itertools
import sys
import threading
import weakref

import torch

from ..trace.locations import Site, capture_stack
from ..trace.model import GradHazard, OptimizerStep
from ..trace.source_search import attribute_writes
from .accumulation import AccumulationWatch
from .cuts import Cuts
from .inplace import InplaceLog
from .leaves import Leaves
from .ledger import StepLedger
from .modules import Modules
from .reads import Tensor, finite_flags, own_parameters, parameters_of, params_of_live_optimizers, submodules, unique
from .records import GRAD_CHECK_STEPS


_MAX_RECHECKS = 8  # checks for stray parameters after an optimizer's first steps (each walks the live modules)


class OptimizerState:
    """What gradscope remembers of one optimizer between its steps (no tensors: weak refs)."""

    __slots__ = ("ref", "name", "steps", "param_ids", "sample", "backwards", "zeroings", "reported", "unread",
                 "accumulated", "ledger", "index", "registrations", "rechecks", "freezes",
                 "freeze_checks")

    def __init__(self, optimizer, index: int = 0):
        self.index = index  # the how-manieth optimizer of the run
        self.ref = weakref.ref(optimizer)
        self.name = type(optimizer).__name__
        self.steps = 0
        self.param_ids: set[int] = set()
        self.sample: list = []  # (param ref, grad ref) of a few parameters at the last step
        self.backwards = -1  # backward calls made before the last step
        self.zeroings = 0  # zero_ calls seen before the last step
        self.reported: set[str] = set()
        # The last step's non-finite check, not read yet: (finite flags per device, the
        # parameters' leaf ids, the step's location, the step number).
        self.unread: tuple | None = None
        self.accumulated = 0  # the clock's .grad-adding backward calls at the last step
        self.ledger = None  # this step's ParamStep, finished after the step (one of the first steps)
        self.registrations = 0  # the modules' registration count when its parameters were last checked
        self.rechecks = 0  # checks made after its first steps, because layers were put into a model
        # The clock's freeze count at its last ledger entry, and the entries kept after a freeze
        self.freezes = self.freeze_checks = 0


class Optimizers:
    def __init__(self, leaves: Leaves, modules: Modules, inplace: InplaceLog, clock, errors, cuts: Cuts):
        self._leaves = leaves
        self._cuts = cuts
        self._modules = modules
        self._inplace = inplace
        self._clock = clock
        self._errors = errors
        # While an optimizer steps, its hundreds of small in-place ops are not looked at one by
        # one; the parameters' versions are compared once, before and after (see step_ended).
        self.stepping = None  # (optimizer ref, [(param ref, version)], plain) during optimizer.step()
        # A plain step (no closure) runs only the update: its ops pass the mode untouched. A step
        # given a closure runs the user's forward and backward inside: those are recorded.
        self.passing = False
        self.checking = False  # gradscope's own torch calls are running (the mode passes them on as they are)
        self.aside = StepAside()
        self._states: dict[int, OptimizerState] = {}
        self.hazards: list[GradHazard] = []
        self.first_steps: list[OptimizerStep] = []
        self.ledger = StepLedger(leaves)
        self._serial = itertools.count()  # each optimizer's first steps: what .grad held, what changed
        self._never_graded: dict[int, tuple] = {}  # leaf id -> (site, optimizer or "backward", step, id or None)
        self._graded: set[int] = set()
        self._not_in_optimizer: dict[int, tuple] = {}  # leaf id -> (site, optimizer, step, id(param))
        self._dead_param_ids: set[int] = set()  # id(param) of what optimizers since gone stepped
        self._named = False
        # The plain list/dict holding modules no model registers: ("Class.attr", kind, [Site])
        self._container: tuple | None = None
        self.accumulation = AccumulationWatch()
        # A GradScaler unscaled gradients: inf/NaN in them are its business (it skips the step)
        self.scaler_seen = False

    def step_began(self, optimizer, args, kwargs) -> None:
        """Global optimizer step pre-hook."""
        aside = self.aside
        if aside.active and not aside.step_running():
            aside.come_back()  # the step that took the mode aside raised: its post-hook never ran
        try:
            params = [p for group in optimizer.param_groups for p in group["params"] if isinstance(p, Tensor)]
            plain = _plain_step(optimizer, args, kwargs)
            # Weak references: a step that raises never reaches step_ended, and what it held
            # must not keep the model alive until the next step.
            ref = weakref.ref
            self.stepping = (ref(optimizer), [(ref(p), p._version) for p in params], plain)
            self.passing = plain
        except Exception as exc:
            self.stepping, self.passing = None, False
            self._errors.add(exc)
            return
        try:
            if not aside.active and plain:
                aside.go(sys._getframe(1))
            # Our own torch calls below: the mode (if still there) lets them through untouched,
            # also in a step given a closure (whose own ops are recorded).
            self.checking = self.passing = True
            self._check_gradients(optimizer, params)
        except Exception as exc:
            self._errors.add(exc)
        finally:
            self.checking, self.passing = False, plain

    def step_ended(self, optimizer, args, kwargs) -> None:
        """Global optimizer step post-hook (never called for a step that raised)."""
        stepping = self.stepping
        try:
            self.checking = self.passing = True  # our own torch calls pass the mode as they are
            state = self._states.get(id(optimizer))
            if stepping is not None and stepping[0]() is optimizer and state is not None:
                entry, state.ledger = state.ledger, None
                if self.ledger.after_step(state, optimizer, entry, stepping[1], self._clock.seq):
                    self._name_while_alive()
            if stepping is not None and stepping[0]() is optimizer and stepping[2]:
                # (a closure's step had its ops recorded one by one, the update's in-place ops too)
                self._inplace.note_step(optimizer, stepping[1])
        except Exception as exc:
            self._errors.add(exc)
        finally:
            self.checking = False
            self.stepping, self.passing = None, False
            if self.aside.active and self.aside.is_step(sys._getframe(1)):
                self.aside.come_back()

    def _check_gradients(self, optimizer, params) -> None:
        state = self._states.get(id(optimizer))
        if state is None or state.ref() is not optimizer:
            if state is not None:  # a dead optimizer's id, reused: what it stepped still counts as stepped
                self._dead_param_ids |= state.param_ids
            state = self._states[id(optimizer)] = OptimizerState(optimizer, next(self._serial))
        state.steps += 1
        self._clock.steps += 1
        if state.steps <= GRAD_CHECK_STEPS:
            state.param_ids.update(id(p) for p in params)
        with_grad = [p for p in params if p.grad is not None]
        leaf_id, clock, site = self._leaves.id_of, self._clock, None

        def step_site():
            nonlocal site
            if site is None:
                site = capture_stack()[0]
            return site

        if state.steps == 1 and len(self.first_steps) < 16:
            self.first_steps.append(OptimizerStep(next(clock.seq), step_site(), state.name))
            self._modules.name_all()  # (paths, while the model lives: it may be local to a function)

        # Gradients not reset since the last step: the same .grad tensors, no zero_ in between.
        if (state.sample and clock.backwards > state.backwards and clock.zeroings == state.zeroings
                and "not-zeroed" not in state.reported
                and all(p() is not None and g() is not None and p().grad is g() for p, g in state.sample)):
            state.reported.add("not-zeroed")
            self.hazards.append(GradHazard("not-zeroed", [leaf_id(p()) for p, _ in state.sample],
                                           step_site(), state.name, state.steps))
        state.sample = [(weakref.ref(p), weakref.ref(p.grad)) for p in with_grad[:3]]
        state.backwards, state.zeroings = clock.backwards, clock.zeroings

        # Gradients reset between two backward calls of one line since this optimizer's last
        # step, and no step in between: an accumulation loop that zeroes every micro-batch.
        # (the ledger's steps only; before `wiped` marks them used)
        applied = self.accumulation.since_cleared() if state.steps <= GRAD_CHECK_STEPS else []
        wiped = self.accumulation.wiped(state.accumulated, state.param_ids)
        if wiped is not None and "accumulation-wiped" not in state.reported:
            state.reported.add("accumulation-wiped")
            self.hazards.append(GradHazard("accumulation-wiped", [leaf_id(p) for p in with_grad[:4]], step_site(),
                                           state.name, state.steps, zero_sites=list(wiped[0]),
                                           backward_site=wiped[1]))
        state.accumulated = self.accumulation.count

        if "nonfinite" not in state.reported:
            self._read_nonfinite(state)  # the previous step's flags, long computed by now
        if with_grad and "nonfinite" not in state.reported:
            dense = [p for p in with_grad if p.grad.layout == torch.strided]
            if dense:
                # The flags are read at the next step or at the end, not now: on a GPU, reading
                # them now would wait for the device once per step.
                state.unread = (finite_flags([p.grad for p in dense]), [leaf_id(p) for p in dense],
                                step_site(), state.steps, clock.backwards)

        if state.steps <= GRAD_CHECK_STEPS or (state.freezes != clock.freezes and state.freeze_checks < _MAX_RECHECKS):
            # (a freeze after the first steps, at an epoch of a schedule: its next step is kept too)
            state.freeze_checks, state.freezes = state.freeze_checks + (state.steps > GRAD_CHECK_STEPS), clock.freezes
            state.ledger = self.ledger.begin(state, step_site(), params, with_grad, next(self._clock.seq),
                                             len(optimizer.param_groups))
            state.ledger[0].backward_sites = applied
        if state.steps <= GRAD_CHECK_STEPS:
            self._modules.scan_flags()
            if with_grad:
                for p in params:
                    if p.grad is not None:
                        self._graded.add(leaf_id(p))
                    elif p.requires_grad and leaf_id(p) not in self._never_graded:
                        self._never_graded[leaf_id(p)] = (step_site(), state.name, state.steps, None)
                        self._name_while_alive()
            self._check_strays(state, step_site)
        elif state.registrations != self._modules.registrations and state.rechecks < _MAX_RECHECKS:
            # Layers were put into a model since this optimizer's last check (pruning, a new
            # head): the parameters they brought may be ones no optimizer holds. (What it holds
            # now counts: `add_param_group` may have taken them in.)
            state.rechecks += 1
            state.param_ids.update(id(p) for p in params)
            self._check_strays(state, step_site)

    def _check_strays(self, state: OptimizerState, step_site) -> None:
        """Parameters of live modules that have a gradient but that no optimizer holds (also
        when none of this optimizer's own has a gradient: an optimizer built on a model that was
        then replaced steps nothing, while the new model's parameters get gradients)."""
        state.registrations = self._modules.registrations
        leaf_id = self._leaves.id_of
        known = set().union(self._dead_param_ids, *(s.param_ids for s in self._states.values()))
        stray_modules = {}
        for module in self._modules.live():
            for p in own_parameters(module):
                if p.grad is not None and id(p) not in known and leaf_id(p) not in self._not_in_optimizer:
                    self._not_in_optimizer[leaf_id(p)] = (step_site(), state.name, state.steps, id(p))
                    if len(self._not_in_optimizer) <= 16:  # (a finding names them: their model may die first)
                        self._leaves.pinned.add(leaf_id(p))
                    stray_modules[id(module)] = module
        if self._container is None:
            self._find_containers(stray_modules, known, step_site, state)

    def _read_nonfinite(self, state: OptimizerState) -> None:
        if state.unread is None:
            return
        flags, leaves, site, step, backwards = state.unread
        state.unread = None
        finite = [True] * len(leaves)
        for indices, device_flags in flags:
            for index, ok in zip(indices, device_flags.tolist()):
                finite[index] = ok
        if all(finite):
            return
        bad = [leaf for leaf, ok in zip(leaves, finite) if not ok]
        self._modules.name_all()  # name the parameters while their model lives
        state.reported.add("nonfinite")
        self.hazards.append(GradHazard("nonfinite", bad[:8], site, state.name, step, backwards_before=backwards))

    def backward_ran(self, site, index: int) -> None:
        """After one of the first backward calls: parameters left with .grad None while others of
        the same model got one (without an optimizer, the step checks never run)."""
        leaf_id = self._leaves.id_of
        for root in self._modules.roots():
            params = [p for _, p in unique(parameters_of(root)) if p.requires_grad]
            if not any(p.grad is not None for p in params):
                continue
            for p in params:
                if p.grad is not None:
                    self._graded.add(leaf_id(p))
                elif leaf_id(p) not in self._never_graded:
                    self._never_graded[leaf_id(p)] = (site, "backward", index + 1, id(p))
                    self._name_while_alive()

    def _name_while_alive(self) -> None:
        """A parameter without gradient (a finding, likely): name the modules and parameters now,
        and the modules the graph cuts were made in, while the model lives (a model local to a
        function is gone when the trace is taken). Once."""
        if not self._named:
            self._named = True
            self._modules.name_all()
            self._cuts.name_modules(self._modules.names)

    def final_hazards(self, last_backward) -> list[GradHazard]:
        """Every gradient hazard, with those only the end of the run can tell (every optimizer
        known; no step saw non-finite gradients). `last_backward`: the last BackwardCall, if any."""
        for state in self._states.values():  # the last step of each optimizer is not read yet
            if "nonfinite" not in state.reported:
                self._read_nonfinite(state)
        hazards = list(self.hazards)
        known = set().union(self._dead_param_ids, *(s.param_ids for s in self._states.values()))
        if self._not_in_optimizer:
            known |= params_of_live_optimizers()  # also those that never stepped (the run failed first)
        never = [lid for lid, entry in self._never_graded.items() if lid not in self._graded
                 # (seen at a backward: where optimizers exist, one left out of them all is left out on
                 # purpose, a target network updated by copying; one an optimizer holds is not)
                 and (entry[3] is None or not self._states or entry[3] in known)]
        if never:
            site, name, step, _ = self._never_graded[never[0]]
            hazards.append(GradHazard("never-graded", never[:256], site, name, step))
        stray = [lid for lid, entry in self._not_in_optimizer.items() if entry[3] not in known]
        if stray:
            site, name, step, _ = self._not_in_optimizer[stray[0]]
            hazard = GradHazard("not-in-optimizer", stray[:16], site, name, step)
            if self._container is not None:
                hazard.container, hazard.container_kind, hazard.container_sites = self._container
            hazards.append(hazard)
        if not any(h.kind == "nonfinite" for h in hazards) and last_backward is not None:
            # No optimizer step saw it: look at the .grad of the leaves still alive, once.
            bad = []
            for tensor, lid in self._leaves.alive(10_000):
                grad = tensor.grad
                if grad is not None and grad.layout == torch.strided and not bool(torch.isfinite(grad).all()):
                    bad.append(lid)
            if bad:
                hazards.append(GradHazard("nonfinite", bad[:8], last_backward.site, "backward", last_backward.index + 1))
        return hazards

    def _find_containers(self, stray_modules: dict, known: set, step_site, state) -> None:
        """Name the plain lists or dicts that hold modules (or parameters) no model registers,
        the lines of their classes that fill them, and the parameters by where they are
        (`hids[0][0].weight`, `waggrs[0]['w']`): the raw parameters there that got a gradient
        are not in any optimizer either."""
        Parameter, leaves = torch.nn.Parameter, self._leaves

        def wanted(obj):  # a stray parameter or module, or a module (a list's cell) whose layers hold one
            if type(obj) is Parameter:
                return obj.grad is not None and id(obj) not in known
            return isinstance(obj, torch.nn.Module) and any(id(m) in stray_modules for _, m in submodules(obj, limit=256))
        held = self._modules.plain_holders(wanted)
        if not held:
            return
        names, kinds, sites = [], [], []
        for holder, attr, kind, paths in held:
            names.append(f"{type(holder).__name__}.{attr}")
            kinds.append(kind)
            for cls in type(holder).__mro__:  # the class whose methods fill the attribute
                code = getattr(vars(cls).get("__init__"), "__code__", None)
                writes = attribute_writes(code.co_filename, cls.__name__, attr) if code is not None else []
                if writes:
                    sites += [Site(code.co_filename, line, function) for line, function in writes]
                    break
            prefix = self._modules.name_of(holder)
            for obj, path in paths.values():
                path = f"{prefix}.{path}" if prefix else path
                if type(obj) is Parameter:
                    leaves.place(obj, path)
                    self._not_in_optimizer.setdefault(leaves.id_of(obj), (step_site(), state.name, state.steps,
                                                                          id(obj)))
                    continue
                for sub_path, module in submodules(obj, path, limit=256):
                    for name, p in vars(module).get("_parameters", {}).items():
                        if p is not None:
                            leaves.place(p, f"{sub_path}.{name}")
        self._container = (", ".join(names), kinds[0] if len(set(kinds)) == 1 else "list or dict", sites[:6])


def _plain_step(optimizer, args, kwargs) -> bool:
    """A step that cannot build graph worth recording (no closure: LBFGS-style steps run the
    user's forward and backward inside; not `differentiable=True`: the step is graph), run
    eagerly."""
    rest = dict(kwargs)
    closure = rest.pop("closure", args[1] if len(args) > 1 else None)  # `closure=None` is none
    return (closure is None and len(args) <= 2 and not rest
            and not optimizer.defaults.get("differentiable", False)
            and not torch.compiler.is_compiling())  # Dynamo traces the mode stack itself


class StepAside:
    """Takes the recording mode off the torch-function stack while an optimizer steps.

    A step runs a hundred small ops per few parameters, none of them a fact gradscope needs one
    by one (the parameters' versions are compared once, before and after). Passing each through
    the mode and a trampoline costs ~3 µs; with the mode off the stack they cost nothing, and
    their warnings come from torch's own lines as under Python.

    The mode goes back in the global post-hook. A step that raises never calls it, so the mode
    also goes back at the next sign of life after the step's frame is gone: the next step, the
    next module call (a forward pre-hook held only while the mode is aside) or the end of the
    recording. Between a step that raised and one of those, bare tensor ops are not recorded.
    """

    def __init__(self):
        self.take = None  # set by the front: () -> bool, takes the mode off this thread's stack
        self.put_back = None  # set by the front: () -> None
        self.active = False
        self._thread = 0
        self._frame_id = 0  # id and code of the step wrapper's frame: nothing of it is held
        self._code = None
        self._hook = None

    def go(self, step_frame) -> None:
        if self.take is None or not self.take():
            return
        self.active = True
        self._thread = threading.get_ident()
        self._frame_id, self._code = id(step_frame), step_frame.f_code
        self._hook = torch.nn.modules.module.register_module_forward_pre_hook(self._module_called)

    def is_step(self, frame) -> bool:
        return id(frame) == self._frame_id and frame.f_code is self._code

    def step_running(self) -> bool:
        """Is the step that took the mode aside still on this thread's stack?"""
        frame = sys._getframe(1)
        while frame is not None:
            if self.is_step(frame):
                return True
            frame = frame.f_back
        return False

    def come_back(self) -> None:
        """Put the mode back (on the thread it was taken from; elsewhere only forget)."""
        if not self.active:
            return
        self.active = False
        self._code = None
        if self._hook is not None:
            self._hook.remove()
            self._hook = None
        if threading.get_ident() == self._thread:
            self.put_back()

    def _module_called(self, module, args):
        if threading.get_ident() == self._thread and not self.step_running():
            self.come_back()
