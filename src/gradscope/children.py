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
same traceback text (no gradscope frame is put between multiprocessing and the target).
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass, field

from .settings import Settings

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


_plan: Plan | None = None
_originals: dict = {}


def install(plan: Plan) -> None:
    """Record the child processes this process starts from now on, as `plan` says."""
    global _plan
    import multiprocessing.process
    import multiprocessing.spawn
    import subprocess

    _plan = plan
    if _originals:
        return
    _originals["bootstrap"] = multiprocessing.process.BaseProcess._bootstrap
    _originals["preparation"] = multiprocessing.spawn.get_preparation_data
    _originals["popen_init"] = subprocess.Popen.__init__
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
    if not _originals:
        return
    multiprocessing.process.BaseProcess._bootstrap = _originals.pop("bootstrap")
    multiprocessing.spawn.get_preparation_data = _originals.pop("preparation")
    subprocess.Popen.__init__ = _originals.pop("popen_init")


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


def _recorded(process) -> bool:
    target = vars(process).get("_target")  # (no attribute lookup that could run the program's code)
    return (getattr(target, "__module__", None), getattr(target, "__name__", None)) not in _NOT_RECORDED


def _leave_parents_recording() -> None:
    """A forked child is a copy of the parent, recording included: stop that copy (the child
    records on its own, or not at all), and drop the parent's SIGTERM report (session._TermReport),
    which would otherwise print the parent's findings from the child."""
    recorder_module = sys.modules.get("gradscope.recorder.recorder")
    running = recorder_module.Recorder._running if recorder_module is not None else None
    if running is not None:
        try:
            running.stop()
        except Exception:
            pass
        recorder_module.Recorder._running = None
    handler = signal.getsignal(signal.SIGTERM)
    if type(getattr(handler, "__self__", None)).__name__ == "_TermReport":
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        except ValueError:  # not the main thread
            pass


class _ChildRun:
    """One child's recording: started when the child has torch, ended after its target ran."""

    def __init__(self, plan: Plan, process):
        from .api import Recording
        from .import_hook import TorchImportWatcher

        self.plan, self.process = plan, process
        self.recording = Recording(plan.settings, list(sys.argv))
        self.watcher = TorchImportWatcher(self._start)
        self.exception: BaseException | None = None
        self.start_error: str | None = None

    def _start(self) -> None:
        try:
            self.recording.start()
        except Exception as exc:
            self.start_error = f"the recorder could not start in the child: {type(exc).__name__}: {exc}"

    def begin(self) -> None:
        import multiprocessing.util as util

        self.watcher.install()
        self._exit_function = util._exit_function
        util._exit_function = self._note_exception_then_exit

    def _note_exception_then_exit(self, *args, **kwargs):
        # _bootstrap calls util._exit_function() in the `finally` right after the target: an
        # exception leaving the target is the one in flight here (multiprocessing then prints
        # it and drops it). Seen here, no frame of ours is in its traceback.
        import multiprocessing.util as util

        self.exception = sys.exc_info()[1]
        util._exit_function = self._exit_function
        try:
            _as_python_shows_it(self.process, self.exception)
        except Exception:
            pass
        return self._exit_function(*args, **kwargs)

    def end(self, exit_code: int) -> None:
        """Stop recording, diagnose, report. Never raises (the child's exit code is the target's)."""
        import multiprocessing.util as util

        try:
            self.watcher.uninstall()
            if util._exit_function == self._note_exception_then_exit:  # the target never started
                util._exit_function = self._exit_function
            self.recording.halt()
            if not self.recording.started:
                return  # the child never imported torch: nothing to report
            exc = _program_error(self.exception)
            self.recording.diagnose(exc, exit_code, (self.start_error,) if self.start_error else ())
            trace = self.recording.trace
            if not (trace.nodes or trace.backward_calls or self.recording.findings or trace.internal_errors):
                return  # no autograd in this child (a worker of some other kind)
            self._report(exit_code, exc)
        except Exception as exc:
            print(f"gradscope: internal error in child process {getattr(self.process, 'name', '?')}: "
                  f"{type(exc).__name__}: {exc}", file=sys.stderr)

    def _report(self, exit_code: int, exc: BaseException | None) -> None:
        from . import session
        from .distributed import per_rank_path
        from .runner import Outcome

        name = child_name(self.process, self.recording.trace.meta.get("ddp_rank"))
        plan = self.plan
        settings = plan.settings
        if settings.flow_svg:
            import dataclasses

            settings = dataclasses.replace(settings, flow_svg=per_rank_path(settings.flow_svg, name))
        result = session.Recorded(Outcome(exit_code, exc), self.recording.trace, self.recording.findings, settings)
        session.report(result, per_rank_path(plan.json_path, name), per_rank_path(plan.trace_path, name),
                       name)


def _as_python_shows_it(process, exc: BaseException | None) -> None:
    """Take gradscope's frames out of the traceback the child is about to show (as `gradscope
    run` does for the program's own). multiprocessing prints an exception that leaves the target
    after this; torch.multiprocessing.spawn's wrapper has already written the target's
    traceback, as text, to the file its parent re-raises it from: that text is written again."""
    from .runner import clean_exception

    if exc is None:
        return
    error = _program_error(exc)
    args = getattr(process, "_args", ())
    if error is not exc and _is_spawn_wrapper(getattr(process, "_target", None)) and len(args) == 4:
        import pickle
        import traceback

        error_file = args[3]
        with open(error_file, "rb") as handle:
            written = pickle.load(handle)
        clean_exception(error)
        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        if text != written:
            with open(error_file, "wb") as handle:
                pickle.dump(text, handle)
    clean_exception(exc)


def _is_spawn_wrapper(target) -> bool:
    return getattr(target, "__module__", "") == "torch.multiprocessing.spawn" and \
        getattr(target, "__name__", "") == "_wrap"


def _program_error(seen: BaseException | None) -> BaseException | None:
    """The error that ended the child's program. torch.multiprocessing.spawn's wrapper catches
    the target's exception, writes its traceback for the parent and exits with 1: the error is
    that SystemExit's context."""
    if isinstance(seen, SystemExit):
        if seen.code not in (0, None) and isinstance(seen.__context__, Exception):
            return seen.__context__
        return None
    return seen


def child_name(process, ddp_rank: int | None = None) -> str:
    """`rank1` when the child knows its rank (the process group, the launcher's environment, the
    rank its DDP module had, or the index torch.multiprocessing.spawn gave it), else `child1`
    (multiprocessing's numbering)."""
    from .distributed import launch_rank

    rank = _process_group_rank()
    if rank is None:
        rank = launch_rank()
    if rank is None:
        rank = ddp_rank
    target = getattr(process, "_target", None)
    args = getattr(process, "_args", ())
    if rank is None and _is_spawn_wrapper(target) and len(args) > 1:
        rank = args[1] if isinstance(args[1], int) else None  # spawn's _wrap(fn, i, ...): fn gets i first
    if rank is not None:
        return f"rank{rank}"
    identity = getattr(process, "_identity", ()) or (os.getpid(),)
    return "child" + "-".join(map(str, identity))


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
    return _originals["popen_init"](self, _under_gradscope(args), *rest, **kwargs)


def _under_gradscope(args):
    """`[python, train.py, ARGS]` (this Python, the program being recorded) -> `[python, -m,
    gradscope, run, OPTIONS, train.py, ARGS]`; any other command unchanged."""
    plan = _plan
    try:
        if plan is None or plan.program is None or not isinstance(args, (list, tuple)) or len(args) < 2:
            return args
        executable = os.fspath(args[0])
        if executable != sys.executable and os.path.realpath(executable) != os.path.realpath(sys.executable):
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
