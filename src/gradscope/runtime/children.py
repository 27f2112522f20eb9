"""The Python processes a recorded program starts are recorded too (`gradscope run` only).

Training programs start more Python processes in two ways, and gradscope follows both:

- **multiprocessing**: `torch.multiprocessing.spawn(train, nprocs=2)`, `mp.Process(target=...)`,
  with any start method. Every process object runs `BaseProcess._bootstrap` in the child, so that
  method is wrapped: the child records the process's target, then reports. A forked child
  inherits the wrapper. A spawned (or forkserver) child starts empty, so a `_Boarding` object
  rides in the preparation data multiprocessing pickles for it; unpickling it in the child puts
  the wrapper there before the process object is even read (coverage.py's technique).
- **re-running itself**: Lightning's `strategy="ddp"` starts ranks >= 1 as `python train.py ARGS`
  through subprocess.Popen. A command that runs this Python on this very program becomes
  `python -m gradscope run OPTIONS train.py ARGS`: the child is a `gradscope run` of its own.

Each child reports as a rank does (distributed.py): its lines prefixed, its files named with its
rank (`report.rank1.json`), or, where no rank is known, `child1`, `child2`, ... (multiprocessing's
own numbering). A child that made no autograd graph reports nothing: no panel, no file.
DataLoader workers are not recorded at all (they run no autograd and must stay fast).

What the program does is unchanged: the same target runs once, with the same exit code and the
same traceback text (no gradscope frame is put between multiprocessing and the target, and the
ones torch's dispatch to gradscope adds are taken out where the child shows its error).
"""

from __future__ import annotations

import os
import signal
import sys
import types
from dataclasses import dataclass, field

from ..rules import diagnose
from ..settings import Settings

# Targets of processes that run no autograd of the user's (DataLoader's workers).
_NOT_RECORDED = {("torch.utils.data._utils.worker", "_worker_loop")}


@dataclass
class Plan:
    """What a child records and where it reports: the parent's `gradscope run` options."""

    settings: Settings
    json_path: str | None = None  # absolute; the child's name is inserted (distributed.per_rank_path)
    trace_path: str | None = None
    run_options: list[str] = field(default_factory=list)  # the same, as `gradscope run` arguments
    program: tuple[str, str] | None = None  # ("script", absolute path) or ("module", name): what a re-run is
    parent_rank: int | None = None  # the recorded program's own rank, under a launcher


_plan: Plan | None = None
# The functions wrapped, as they were before: kept for good (a wrapper called late, from another
# thread, still finds them), restored only where gradscope's wrapper is still in place.
_originals: dict = {}


def install(plan: Plan) -> None:
    """Record the child processes this process starts from now on, as `plan` says."""
    global _plan
    import multiprocessing.process
    import multiprocessing.spawn
    import subprocess
    import traceback

    _plan = plan
    if not _originals:
        _originals.update(bootstrap=multiprocessing.process.BaseProcess._bootstrap,
                          preparation=multiprocessing.spawn.get_preparation_data,
                          popen_init=subprocess.Popen.__init__,
                          print_exc=traceback.print_exc, format_exc=traceback.format_exc)
    multiprocessing.process.BaseProcess._bootstrap = _bootstrap
    multiprocessing.spawn.get_preparation_data = _preparation_data
    if plan.program is not None:
        subprocess.Popen.__init__ = _popen_init


def uninstall() -> None:
    global _plan
    import multiprocessing.process
    import multiprocessing.spawn
    import subprocess

    _plan = None
    for owner, name, ours, key in ((multiprocessing.process.BaseProcess, "_bootstrap", _bootstrap, "bootstrap"),
                                   (multiprocessing.spawn, "get_preparation_data", _preparation_data, "preparation"),
                                   (subprocess.Popen, "__init__", _popen_init, "popen_init")):
        if key in _originals and getattr(owner, name) is ours:  # (another tool's later patch stays)
            setattr(owner, name, _originals[key])


# ---------------------------------------------------------------------------- multiprocessing
def _preparation_data(name):
    data = _originals["preparation"](name)
    if _plan is not None:
        data["gradscope"] = _Boarding(_plan)  # multiprocessing's prepare() ignores keys it does not know
    return data


class _Boarding:
    """Pickled into a spawned child's preparation data; unpickling it installs the plan there."""

    def __init__(self, plan: Plan):
        self.plan = plan

    def __reduce__(self):
        return _board, (self.plan,)


def _board(plan: Plan) -> None:
    install(plan)


def _bootstrap(process, *args, **kwargs):
    """BaseProcess._bootstrap, in the child: record the process's run, then report."""
    original = _originals["bootstrap"]
    child = None
    try:  # gradscope failing here must not stop the child from running its target
        _leave_parents_recording()
        if _plan is not None and _recorded(process):
            child = _ChildRun(_plan, process)
            child.begin()
    except Exception as exc:
        child = None
        print(f"gradscope: internal error, child process not recorded: {type(exc).__name__}: {exc}",
              file=sys.stderr)
    if child is None:
        return original(process, *args, **kwargs)
    exit_code = 1
    try:
        exit_code = original(process, *args, **kwargs)
        return exit_code
    finally:
        child.end(exit_code)


def _function_name(target) -> tuple[str | None, str | None]:
    """(module, name) of a plain function; (None, None) for any other callable (reading names
    off other objects could run the program's own `__getattr__`)."""
    if type(target) is types.FunctionType:
        return target.__module__, target.__name__
    return None, None


def _recorded(process) -> bool:
    return _function_name(vars(process).get("_target")) not in _NOT_RECORDED


def _leave_parents_recording() -> None:
    """A forked child is a copy of the parent, recording included: stop that copy (the child
    records on its own, or not at all). The parent's SIGTERM report is already gone: every fork
    drops it (session.TermReport, os.register_at_fork)."""
    recorder_module = sys.modules.get("gradscope.recorder.recorder")
    running = recorder_module.Recorder._running if recorder_module is not None else None
    if running is not None:
        running.drop_in_forked_child()


class _ChildRun:
    """One child's recording: started when the child has torch, ended after its target ran."""

    def __init__(self, plan: Plan, process):
        from .import_hook import TorchImportWatcher
        from .recording import Recording

        self.plan, self.process = plan, process
        self.recording = Recording(plan.settings, list(sys.argv))
        self.watcher = TorchImportWatcher(self._start)
        self.exception: BaseException | None = None
        self.start_error: str | None = None
        self.terminate = None

    def _start(self) -> None:
        try:
            self.recording.start()
        except Exception as exc:
            self.start_error = f"the recorder could not start in the child: {type(exc).__name__}: {exc}"

    def begin(self) -> None:
        import traceback

        from .sigterm import TermReport

        self.watcher.install()
        # The error that ends the target is caught and shown by multiprocessing (`_bootstrap`:
        # traceback.print_exc()) or by torch.multiprocessing.spawn's wrapper (traceback.format_exc(),
        # text for the parent). Seen there, it is noted, and shown without gradscope's frames.
        traceback.print_exc, traceback.format_exc = self._print_exc, self._format_exc
        # A worker's parent ends the other workers with SIGTERM when one fails (mp.spawn does):
        # what was recorded is reported first, as `gradscope run` does for itself.
        self.terminate = TermReport(self._report_terminated)

    def _print_exc(self, limit=None, file=None, chain=True):
        exc = self._note_and_clean(sys._getframe(1).f_code)
        if exc is None:
            return _originals["print_exc"](limit=limit, file=file, chain=chain)
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, limit=limit, file=file, chain=chain)

    def _format_exc(self, limit=None, chain=True):
        exc = self._note_and_clean(sys._getframe(1).f_code)
        if exc is None:
            return _originals["format_exc"](limit=limit, chain=chain)
        import traceback

        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=limit, chain=chain))

    def _note_and_clean(self, caller) -> BaseException | None:
        """The exception being handled, if `caller` is the code that shows the target's error
        (else None: the program's own call, passed on as it is)."""
        if caller is not _originals["bootstrap"].__code__ and not _is_spawn_wrapper_code(caller):
            return None
        exc = sys.exc_info()[1]
        if exc is None:
            return None
        from .runner import clean_exception

        if self.exception is None:
            self.exception = exc
        try:
            clean_exception(exc)
        except Exception:
            pass
        return exc

    def end(self, exit_code: int) -> None:
        """Stop recording, diagnose, report. Never raises (the child's exit code is the target's)."""
        import traceback

        try:
            traceback.print_exc, traceback.format_exc = _originals["print_exc"], _originals["format_exc"]
            if self.terminate is not None:
                self.terminate.uninstall()
            self.watcher.uninstall()
            self.recording.halt()
            if not self.recording.started:
                return  # the child never imported torch: nothing to report
            exc = self.exception
            trace = self.recording.finish(exc, exit_code, (self.start_error,) if self.start_error else ())
            findings = diagnose(trace)
            if not (trace.nodes or trace.backward_calls or findings or trace.internal_errors):
                return  # no autograd in this child (a worker of some other kind)
            self._report(trace, findings)
        except Exception as exc:
            print(f"gradscope: internal error in child process {getattr(self.process, 'name', '?')}: "
                  f"{type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            if self.terminate is not None:
                self.terminate.release()  # a SIGTERM held since the target ended (the parent stopping this worker) ends it now

    def _report_terminated(self, stopped) -> None:
        if not stopped.outside_python:  # (from the watchdog thread, the main thread's modes are out of reach)
            self.recording.halt()
        if self.recording.started:
            # The target may have ended already, at its error (noted): SIGTERM then came during
            # multiprocessing's own ending (threading's shutdown), and the report is the error's.
            trace = self.recording.finish(self.exception, -signal.SIGTERM)
            if self.exception is None:
                trace.stopped = stopped
            self._report(trace, diagnose(trace))

    def _report(self, trace, findings) -> None:
        from .distributed import report

        name = child_name(self.process, trace.meta.get("ddp_rank"), self.plan.parent_rank)
        plan = self.plan
        report(trace, findings, plan.json_path, plan.trace_path, plan.settings.flow_svg, name)


def _is_spawn_wrapper(target) -> bool:
    return _function_name(target) == ("torch.multiprocessing.spawn", "_wrap")


def _is_spawn_wrapper_code(code) -> bool:
    spawn = sys.modules.get("torch.multiprocessing.spawn")
    wrapper = getattr(spawn, "_wrap", None) if spawn is not None else None
    return type(wrapper) is types.FunctionType and code is wrapper.__code__


def child_name(process, ddp_rank: int | None = None, parent_rank: int | None = None) -> str:
    """`rank1` when the child knows its rank (the process group, the launcher's environment, the
    rank its DDP module had, or the index torch.multiprocessing.spawn gave it), else `child1`
    (multiprocessing's numbering). A child of a rank that only inherited the rank (a forked
    helper of rank 1) is `rank1-child1`: its files must not replace its parent's."""
    from .distributed import launch_rank

    identity = "-".join(map(str, getattr(process, "_identity", ()) or (os.getpid(),)))
    rank = _process_group_rank()
    if rank is None:
        rank = launch_rank()
    if rank is None:
        rank = ddp_rank
    args = vars(process).get("_args", ())
    if rank is None and _is_spawn_wrapper(vars(process).get("_target")) and len(args) > 1:
        rank = args[1] if isinstance(args[1], int) else None  # spawn's _wrap(fn, i, ...): fn gets i first
    if rank is not None and rank == parent_rank:
        return f"rank{rank}-child{identity}"
    if rank is not None:
        return f"rank{rank}"
    return f"child{identity}"


def _process_group_rank() -> int | None:
    """This process's rank in the default process group, if one is up (no collective: a read)."""
    distributed = sys.modules.get("torch.distributed")
    try:
        if distributed is not None and distributed.is_available() and distributed.is_initialized():
            return int(distributed.get_rank())
    except Exception:
        pass
    return None


# ---------------------------------------------------------------------------- re-running itself
def _popen_init(self, args, *rest, **kwargs):
    # (Popen(args, bufsize, executable, ...): a command given its own executable is left alone)
    if kwargs.get("executable") is None and not (len(rest) > 1 and rest[1] is not None):
        args = _under_gradscope(args)
    return _originals["popen_init"](self, args, *rest, **kwargs)


def _under_gradscope(args):
    """`[python, train.py, ARGS]` (this Python, the program being recorded) -> `[python, -m,
    gradscope, run, OPTIONS, train.py, ARGS]`; any other command unchanged."""
    plan = _plan
    try:
        if plan is None or plan.program is None or not isinstance(args, (list, tuple)) or len(args) < 2:
            return args
        executable = os.fspath(args[0])
        # The same path, not the same file: a venv's python links to a base Python without gradscope.
        if executable != sys.executable and os.path.abspath(executable) != os.path.abspath(sys.executable):
            return args
        kind, program = plan.program
        rest = [os.fspath(a) if isinstance(a, os.PathLike) else a for a in args[1:]]
        if kind == "script" and isinstance(rest[0], str) and os.path.abspath(rest[0]) == program:
            return [args[0], "-m", "gradscope", "run", *plan.run_options, *rest]
        if kind == "module" and rest[:2] == ["-m", program]:
            return [args[0], "-m", "gradscope", "run", *plan.run_options, *rest]
    except Exception:  # never break the program's subprocess
        pass
    return args
