"""The recorder's front: builds the parts, starts and stops recording, and hands out the trace.

Parts, bottom to top (each imports only parts below it):
    records, reads, events, process     layouts and counters; safe reads; logs; process set-up
    leaves, modules                     leaf tensors; nn.Module names and call stacks
    functions, graph                    where custom Functions were applied; node records, saved
                                        tensors, retention
    cuts, nan, flow                     graph cuts and taint; --check-nan; --grad-flow
    inplace, optim                      the in-place log and hazard check; optimizer facts
    postmortem, backward, calls         after a failure; backward calls; calls with handlers
    mode                                the TorchFunctionMode: the per-op path
    export, recorder                    the trace; this front
"""

from __future__ import annotations

import dataclasses
import functools
import threading

from torch.nn.modules import module as torch_modules
from torch.optim import optimizer as torch_optimizers

from ..errors import RecordingError
from ..settings import Settings
from ..trace.model import TensorArg, Trace
from .backward import Backwards
from .calls import SpecialCalls
from .cuts import Cuts
from .events import EventLog, InternalErrors
from .export import export, resolved
from .graph import Graph
from .inplace import InplaceLog
from .leaves import Leaves
from .mode import RecordingMode
from .mode_sets import ModeSets
from .state_loads import StateLoads
from .modules import Modules
from .nan import NanWatch
from .optim import Optimizers
from .postmortem import PostMortem
from .process import ProcessSetup, run_meta
from .reads import Tensor
from .records import Clock


class Recorder:
    """The recording session. Use `start()`/`stop()` around the user's program.

    Settings are those of `gradscope.settings.Settings`, given as one object or by name
    (`Recorder(keep_backwards=3)`); `freeze_gc=False` leaves the collector alone (tests).
    """

    def __init__(self, settings: Settings | None = None, *, freeze_gc: bool = True, **overrides):
        self.settings = settings = dataclasses.replace(settings or Settings(), **overrides)
        self._process = ProcessSetup(freeze_gc)
        self._clock = clock = Clock()
        self._errors = errors = InternalErrors()
        self._failures: dict[int, tuple] = {}  # id(exception) -> ("op" | "backward", its record)
        self._events = events = EventLog()
        self._leaves = leaves = Leaves()
        self._modules = modules = Modules(leaves, clock, errors)
        self._graph = graph = Graph(leaves, modules, events, clock, settings.keep_backwards, settings.max_nodes)
        self._cuts = cuts = Cuts(graph, leaves, modules, clock, events)
        self._nan = NanWatch(graph, clock, errors, watch_all=settings.check_nan)
        self._flow = None
        if settings.grad_flow is not None:
            from .flow import FlowCollector

            self._flow = FlowCollector(modules, leaves, errors, tuple(settings.grad_flow), settings.flow_max_steps)
            modules.on_exit = self._flow.module_output
        self._inplace = inplace = InplaceLog(graph, leaves, cuts, events, clock, modules)
        self._optimizers = optimizers = Optimizers(leaves, modules, inplace, clock, errors, cuts)
        self._postmortem = postmortem = PostMortem(graph, leaves, cuts, modules)
        self._backwards = Backwards(graph, leaves, cuts, modules, optimizers, postmortem, clock, errors,
                                    self._failures, self._flow)
        self._specials = SpecialCalls(graph, leaves, cuts, events, optimizers, clock)
        self._mode = RecordingMode(graph, leaves, modules, cuts, inplace, optimizers, self._specials,
                                   self._backwards, postmortem, clock, errors, self._failures)
        optimizers.aside.take, optimizers.aside.put_back = self._mode.take_off_stack, self._mode.put_on_stack
        self._backwards.after = self.prune
        graph.on_full = self.prune
        self._hook_handles: list = []
        self._mode_sets = ModeSets(modules, clock, errors)
        self._state_loads = StateLoads(clock, errors)

    # ------------------------------------------------------------------ life cycle
    # One recording per process at a time: two would each see the other's hooks and ops.
    _running: Recorder | None = None
    _running_lock = threading.Lock()

    def start(self) -> None:
        with Recorder._running_lock:
            if Recorder._running is not None:
                raise RecordingError(
                    "gradscope is already recording in this process (gradscope run, the pytest plugin, the "
                    "%%gradscope magic or a gradscope.record() block); recordings cannot be nested or run "
                    "side by side")
            Recorder._running = self
        try:
            self._start()
        except BaseException:
            Recorder._running = None
            raise

    @property
    def is_running(self) -> bool:
        return Recorder._running is self

    def _start(self) -> None:
        self._process.apply()
        modules, optimizers = self._modules, self._optimizers
        try:
            for register, hook in [
                (torch_modules.register_module_parameter_registration_hook, modules.parameter_registered),
                (torch_modules.register_module_module_registration_hook, modules.submodule_registered),
                (torch_modules.register_module_forward_pre_hook, modules.entered),
                (functools.partial(torch_modules.register_module_forward_hook, always_call=True), modules.exited),
                (torch_optimizers.register_optimizer_step_pre_hook, optimizers.step_began),
                (torch_optimizers.register_optimizer_step_post_hook, optimizers.step_ended),
            ]:
                self._hook_handles.append(register(hook))
            for wrapped in (self._mode_sets, self._state_loads):
                wrapped.install()
                self._hook_handles.append(wrapped)
            self._mode.__enter__()
        except BaseException:
            self._remove_hooks()
            raise

    def stop(self) -> None:
        if Recorder._running is not self:
            return  # never started, or stopped already
        try:
            self._optimizers.aside.come_back()  # a step that raised took the mode off the stack
            self._mode.__exit__(None, None, None)
        except Exception as exc:  # the user's own mode stack was left unbalanced
            self._errors.add(exc)
        self._remove_hooks()
        Recorder._running = None

    def drop_in_forked_child(self) -> None:
        """In a process forked while this recorder ran: stop this copy of the parent's recording
        (its mode out of the stack, whatever the program pushed above it kept; its hooks off)."""
        if Recorder._running is not self:
            return
        try:
            self._mode.remove_from_stack()
        except Exception as exc:
            self._errors.add(exc)
        self._remove_hooks()
        Recorder._running = None

    def _remove_hooks(self) -> None:
        for handle in self._hook_handles:
            handle.remove()
        self._hook_handles.clear()

        self._process.undo()

    def prune(self) -> None:
        """Forget what is older than the settings keep (after each backward call; when full)."""
        oldest_seq = self._graph.prune()
        self._modules.prune(self._clock.backwards - self.settings.keep_backwards, self.settings.max_nodes)
        self._inplace.forget_before(oldest_seq)

    # ------------------------------------------------------------------ what was recorded
    @property
    def saw_compiled(self) -> bool:
        return self._mode.saw_compiled

    def failure_for(self, exc: BaseException):
        """The recorded failure an uncaught exception came from: ("op"|"backward", record)."""
        return self._failures.get(id(exc))

    def describe_exception(self, exc: BaseException) -> list[TensorArg]:
        """Tensors held by the innermost frame an uncaught error came from (e.g. the optimizer's
        `param` in "can't optimize a non-leaf Tensor")."""
        tb = exc.__traceback__
        if tb is None:
            return []
        while tb.tb_next is not None:
            tb = tb.tb_next
        try:
            values = list(tb.tb_frame.f_locals.values())
            return [self._postmortem.describe(v) for v in values if isinstance(v, Tensor)][:4]
        except Exception as inner:
            self._errors.add(inner)
            return []

    def stats(self) -> dict[str, int]:
        """How much the recorder holds now (for tests and benchmarks: memory must stay flat)."""
        return {**self._graph.stats(), "leaves": len(self._leaves.records),
                "module_calls": len(self._modules.calls), "inplace_changes": len(self._inplace.changes),
                "tainted": len(self._cuts.tainted), "backward_calls": self._clock.backwards,
                "flow_pending": self._flow.pending() if self._flow is not None else 0}

    def to_trace(self, argv: list[str]) -> Trace:
        try:
            self._modules.scan_flags()
            self._modules.name_all()
        except Exception as exc:
            self._errors.add(exc)
        trace = Trace(argv=list(argv), meta=run_meta())
        trace.meta["backward_calls"] = self._clock.backwards  # all of them; the trace keeps the latest
        trace.meta["optimizer_steps"] = self._clock.steps
        if self.saw_compiled:
            trace.meta["notes"] = ["torch.compile'd code ran: gradscope sees a compiled region as one opaque "
                                   "op (its inner ops, saved tensors and in-place changes are not recorded)"]
        calls = self._backwards.calls
        hazards = self._optimizers.final_hazards(calls[-1] if calls else None)
        for hazard in hazards:  # the leaves they name stay in the trace
            self._leaves.pinned.update(hazard.leaves)
        for step in self._optimizers.ledger.steps:
            self._leaves.pinned.update(step.frozen_changed + step.changed_leaves + step.grad_none + step.grad_zero)
        export(trace, graph=self._graph, leaves=self._leaves, modules=self._modules, cuts=self._cuts,
               events=self._events, inplace=self._inplace, backward_calls=calls,
               op_failures=self._mode.op_failures, gradient_hazards=hazards,
               nan_origins=self._nan.origins if not self._optimizers.scaler_seen else [],
               grad_resets=self._specials.grad_resets, first_steps=self._optimizers.first_steps,
               param_steps=self._optimizers.ledger.steps, mode_sets=self._mode_sets.calls,
               state_loads=self._state_loads.loads,
               functions={info.name: info.defined_at for info in self._graph.types.values()
                          if info.defined_at is not None})
        if self._flow is not None:
            def leaf_site(lid):
                leaf = self._leaves.records.get(lid)
                return resolved(leaf.loc) if leaf is not None else None
            trace.grad_flow = self._flow.to_trace(self.settings.flow_thresholds, resolved, leaf_site)
        trace.internal_errors = self._errors.report()
        return trace
