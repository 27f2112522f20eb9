"""The one front for recording: every recording (`gradscope run`, `check`, `graph`, the processes
a program starts, `gradscope.record()`, the IPython magics, the pytest plugin) starts, halts and
ends here, and is turned into a trace here.

    recording = Recording(settings, argv)
    recording.start()          # imports torch; the recorder hooks in
    ...                        # the program runs
    recording.halt()
    trace = recording.finish(exc, exit_status)   # never raises

Diagnosing the trace is the next step, `rules.diagnose(trace)`, taken by the caller.
"""

from __future__ import annotations

from ..errors import RecordingError
from ..settings import Settings
from ..trace.locations import Site, real_path
from ..trace.model import Trace, UncaughtError


class Recording:
    """One recording of this process. `start()` once; `halt()` and `resume()` as often as
    needed (the IPython magics record cell by cell); `finish()` builds the trace."""

    def __init__(self, settings: Settings | None = None, argv: list[str] | None = None):
        self.settings = settings or Settings()
        self.argv = list(argv or [])
        self._recorder = None
        self._used = False

    def start(self) -> None:
        """Start recording (imports torch). Raises RecordingError if this recording ran already,
        or if another recording is running in this process."""
        if self._used:
            raise RecordingError("this recording has run already; start a new one with gradscope.record()")
        from ..recorder import Recorder  # imports torch

        recorder = Recorder(self.settings)
        recorder.start()
        self._recorder, self._used = recorder, True

    def halt(self) -> None:
        """Stop recording; what the program does next is not recorded (resume() records again)."""
        if self._recorder is not None:
            self._recorder.stop()

    def resume(self) -> None:
        if self._recorder is None:
            raise RecordingError("this recording is over; start a new one with gradscope.record()")
        self._recorder.start()

    @property
    def started(self) -> bool:
        """Whether start() ran (it may have stopped since)."""
        return self._used

    @property
    def running(self) -> bool:
        return self._recorder is not None and self._recorder.is_running

    def finish(self, exc: BaseException | None, exit_status: int, internal_errors: tuple[str, ...] = (),
               final: bool = True) -> Trace:
        """The trace of what was recorded (halt() first), for a program that ended with `exc`
        (None: it did not raise). `final=False`: a snapshot; resume() may record more. Never
        raises: gradscope's own failure here becomes an internal error in an empty trace."""
        recorder = self._recorder
        if final:
            self._recorder = None
        try:
            trace = build_trace(recorder, self.argv, exc, exit_status)
        except Exception as failure:
            trace = Trace(argv=self.argv, exit_status=exit_status)
            trace.internal_errors.append(f"building the trace failed: {type(failure).__name__}: {failure}")
        trace.internal_errors.extend(internal_errors)
        return trace


def build_trace(recorder, argv: list[str], exc: BaseException | None, exit_status: int) -> Trace:
    """The trace of a recorder's run that ended with `exc` (None: it did not raise)."""
    from . import runner

    held_tensors = []  # described before the trace is taken, so the nodes they name are in it
    if exc is not None and recorder is not None and recorder.failure_for(exc) is None:
        held_tensors = recorder.describe_exception(exc)
    # No recorder: the program never imported torch, so there is no autograd to explain.
    trace = recorder.to_trace(argv) if recorder is not None else Trace(argv=list(argv))
    trace.exit_status = exit_status
    if exc is not None:
        where = runner.innermost_user_frame(exc)
        error = UncaughtError(
            type=type(exc).__name__, message=str(exc),
            site=Site(real_path(where[0]), where[1]) if where else None,
        )
        failure = recorder.failure_for(exc) if recorder is not None else None
        error.tensors = held_tensors
        if failure is not None and failure[0] == "backward":
            error.backward_call = failure[1].index
        elif failure is not None:
            error.op_failure = next((i for i, f in enumerate(trace.op_failures) if f.seq == failure[1].seq), None)
        trace.error = error
    return trace
