"""SIGTERM during a recorded run: the program still gets its report, then dies by SIGTERM as it
would have (same exit status, same lost output). See TermReport."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from ..trace.locations import stack_sites
from ..trace.model import Stopped


class TermReport:
    """SIGTERM ends a Python program at once, with no cleanup and its stdout buffer lost. To
    still report what was recorded (best effort), a handler runs `report` first and then dies by
    SIGTERM itself, as the program would have: same exit status, same lost output. Installed
    only where the program left SIGTERM at its default, and from the main thread; a handler the
    program installs later replaces it, as it would replace the default.

    A Python handler runs only when the main thread gets back to Python code. A program stuck
    in C++ (a wait on a future or a collective that never completes) would then ignore SIGTERM,
    where plain Python dies of it. So a watchdog thread learns of the signal through
    faulthandler (whose C-level handler writes to a pipe, then chains to Python's) and, if the
    Python handler has not started within `GRACE` seconds, restores the default action and
    sends SIGTERM again, after reporting where the main thread waits (at most REPORT_LIMIT; a
    C-level timer ends the process if that report gets stuck). A program stuck while holding
    the GIL cannot be helped from inside.

    Once the program has ended, a SIGTERM waits until its report is written (uninstall/release);
    a report that gets stuck (a full stderr pipe) gets REPORT_LIMIT, as the handler's does. A
    process forked from the program gets SIGTERM's default back (os.register_at_fork): its
    SIGTERM is its own, never the parent's report or the parent's watchdog.
    """

    GRACE = 2.0
    # A report written from the watchdog may wait on something the stuck main thread holds: it
    # gets this long (torchrun sends SIGKILL 30 s after SIGTERM), then the process dies anyway.
    REPORT_LIMIT = 10.0

    def __init__(self, report):
        self.installed = False
        self._started = threading.Event()
        self._claim = threading.Lock()  # the handler or the watchdog: whoever takes it reports
        self._reported = threading.Event()
        self._pipe = None
        self._ended = threading.Event()  # the program has ended: SIGTERM is held (see uninstall)
        self._released = threading.Event()
        self._held = False  # a SIGTERM came while held
        if report is None or threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return
        self.report = report
        signal.signal(signal.SIGTERM, self._handle)
        self.installed = True
        self._start_watchdog()
        _watch_forks(self)

    def _start_watchdog(self) -> None:
        if os.name != "posix":
            return
        try:
            import faulthandler

            read_end, write_end = os.pipe()
            os.set_blocking(write_end, False)  # the C handler must never block
            faulthandler.register(signal.SIGTERM, file=write_end, all_threads=False, chain=True)
        except Exception:  # no watchdog: the Python handler alone, as before
            return
        self._pipe = (read_end, write_end)
        threading.Thread(target=self._watch, args=(read_end,), name="gradscope-sigterm", daemon=True).start()

    def _watch(self, read_end) -> None:
        try:
            signalled = bool(os.read(read_end, 65536))  # b"": uninstall closed the write end
        except OSError:
            signalled = False
        finally:
            os.close(read_end)  # closed here, never under a read (its number could be reused)
        if not signalled:
            return
        if self._ended.is_set() or self._started.wait(self.GRACE) or self._ended.is_set():
            # Python's handler is reporting, or the program had ended and its report is being
            # written; either ends the process after it. A report stuck in C (a full stderr
            # pipe, a device sync) would keep the process alive: it gets REPORT_LIMIT, no more.
            finished = self._reported if self._started.is_set() else self._released
            _exit_later(self.REPORT_LIMIT + 1)
            finished.wait(self.REPORT_LIMIT)
            time.sleep(0.5)  # (the main thread ends the process itself just after)
            _die_by_sigterm()
            return
        # The main thread is stuck outside Python: report where it waits (from here, within a
        # limit), then die by SIGTERM as plain Python would.
        if self._claim.acquire(blocking=False):
            _exit_later(self.REPORT_LIMIT + 1)
            main = sys._current_frames().get(threading.main_thread().ident)
            reporter = threading.Thread(target=self._report, args=(_stopped(main, outside_python=True),),
                                        name="gradscope-sigterm-report", daemon=True)
            reporter.start()
            reporter.join(self.REPORT_LIMIT)
        else:  # the Python handler started just now and reports: give it the same time, no more
            self._reported.wait(self.REPORT_LIMIT)
        _die_by_sigterm()

    def _handle(self, signum, frame) -> None:
        self._started.set()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if self._claim.acquire(blocking=False):
            self._report(_stopped(frame, outside_python=False))
        else:  # the watchdog is reporting (the program came back to Python meanwhile)
            self._reported.wait(self.REPORT_LIMIT)
        os.kill(os.getpid(), signal.SIGTERM)

    def _report(self, stopped: Stopped) -> None:
        try:
            self.report(stopped)
        except BaseException as exc:  # best effort: dying as the program would matters more
            try:
                print(f"gradscope: internal error while reporting after SIGTERM: {type(exc).__name__}: {exc}",
                      file=sys.stderr, flush=True)
            except BaseException:
                pass
        finally:
            self._reported.set()

    def uninstall(self) -> None:
        """The program has ended. A SIGTERM from now on (torchrun stopping the other ranks once
        one has failed) is held until `release()`: the ended program's report gets written. The
        watchdog stays: it ends the process if that report is not written within REPORT_LIMIT."""
        self._ended.set()
        if self.installed and signal.getsignal(signal.SIGTERM) == self._handle:
            # A handler, not a blocked signal: a process-wide SIGTERM may be delivered to any
            # thread (gloo's, torch's), and one where it is not blocked would die of it at once.
            signal.signal(signal.SIGTERM, self._hold)
            if self._pipe is not None:  # signal.signal took out faulthandler's C handler: again
                import faulthandler

                try:
                    faulthandler.unregister(signal.SIGTERM)
                    faulthandler.register(signal.SIGTERM, file=self._pipe[1], all_threads=False, chain=True)
                except Exception:
                    pass

    def _hold(self, signum, frame) -> None:
        self._held = True

    def release(self) -> None:
        """SIGTERM back to what the program left it; one held meanwhile ends the process now, as
        it would have. Also when the report failed: never raises."""
        global _active
        if _active is self:
            _active = None
        self._stop_watchdog()
        if self.installed and signal.getsignal(signal.SIGTERM) == self._hold:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            if self._held:
                os.kill(os.getpid(), signal.SIGTERM)
        self._released.set()

    def _stop_watchdog(self) -> None:
        """faulthandler's C handler out, the watchdog's pipe closed (it reads EOF and returns)."""
        if self._pipe is None:
            return
        try:
            import faulthandler

            faulthandler.unregister(signal.SIGTERM)
            # unregister puts back the C handler of the time of register(): Python's. Where the
            # program has since set SIG_DFL or SIG_IGN, that handler would drop the signal.
            current = signal.getsignal(signal.SIGTERM)
            if current in (signal.SIG_DFL, signal.SIG_IGN):
                signal.signal(signal.SIGTERM, current)
        except Exception:
            pass
        finally:
            os.close(self._pipe[1])
            self._pipe = None

    def _forked(self) -> None:
        """In a child forked from the program: SIGTERM as it was before gradscope (a child of
        multiprocessing then records on its own, see children.py), and no share in the parent's
        watchdog pipe."""
        self._stop_watchdog()
        try:
            if signal.getsignal(signal.SIGTERM) in (self._handle, self._hold):
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
        except Exception:
            pass


_active: TermReport | None = None  # the TermReport of this process, from install to release
_fork_hook_registered = False


def _watch_forks(term: TermReport) -> None:
    global _active, _fork_hook_registered
    _active = term
    if not _fork_hook_registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork_in_child)
        _fork_hook_registered = True


def _after_fork_in_child() -> None:
    global _active
    term, _active = _active, None
    if term is not None:
        term._forked()


def _die_by_sigterm() -> None:
    """End the process by SIGTERM's default action, from any thread."""
    try:
        import ctypes

        ctypes.CDLL(None).signal(signal.SIGTERM, 0)  # SIG_DFL, also from a thread other than the main one
    except Exception:
        os._exit(128 + signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGTERM)


def _exit_later(seconds: float) -> None:
    """End the process (status 1) if it is still alive in `seconds`: a backstop run by
    faulthandler's own C thread, which needs no GIL, where the watchdog's report could get stuck
    holding it (then the watchdog could not end the process itself)."""
    try:
        import faulthandler

        faulthandler.dump_traceback_later(seconds, exit=True, file=open(os.devnull, "w"))  # noqa: SIM115 (held by faulthandler)
    except Exception:
        pass


def _stopped(frame, outside_python: bool) -> Stopped:
    stack, user = stack_sites(frame)
    return Stopped("SIGTERM", user, stack, outside_python)
