"""Run `python script.py` and `python -m gradscope ...` as forks of a process that has already
imported torch: the same program in its own process, without two seconds of `import torch`.

Why: most of the suite's time was interpreter start-ups, two thirds of each one `import
torch`, for the end-to-end runs of every sample next to plain Python. A fork server per test
process (tests/zygote_server.py) imports torch once; each program is a forked child with its
own stdout, stderr, working directory, environment, `sys.argv`, `sys.path[0]` and `__main__`,
ended the way the interpreter ends (threads joined, atexit, flushed streams, the exit status,
death by SIGINT after an uncaught KeyboardInterrupt).

What a fork cannot give, so those runs stay real subprocesses (`real=True`, or automatically):
- an environment that changes how the interpreter or torch starts (PYTHON*, OMP_*, MKL_*,
  TORCH_*, CUDA_* variables that differ from the server's): they are read at start-up;
- anything about start-up itself: whether torch is imported, and when (torch is already in
  `sys.modules`), `--help` without torch, import-time warnings;
- signals sent from outside and `multiprocessing` start methods that re-run the script;
- a plain-Python script that prints Python stacks itself (anomaly mode's "Traceback of forward
  call", `traceback.print_stack`): its stacks would show the helper's frames below `<module>`.
  (Under `gradscope run` they do not: gradscope hides the frames below the user's program.)
Tests of those say `real=True`. Set GRADSCOPE_TESTS_NO_FORK=1 to run everything for real.
"""

from __future__ import annotations

import json
import locale
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVER = Path(__file__).with_name("zygote_server.py")
# Read when the interpreter or torch starts: a child of the server would not see a change.
STARTUP_PREFIXES = ("PYTHON", "OMP_", "MKL_", "TORCH_", "CUDA_", "KMP_", "GOMP_", "LD_", "MALLOC")
# Words of a script that prints Python stacks of its own (see above).
STACK_PRINTERS = ("anomaly", "print_stack", "format_stack", "extract_stack", "inspect.stack", "_getframe")


class Zygote:
    """One fork server (started on first use, by the test process that uses it)."""

    def __init__(self, env: dict, cwd: Path):
        self.env = dict(env)
        self._cwd = cwd
        self._proc: subprocess.Popen | None = None
        self._pending = b""  # server output read but not yet used
        self._scratch = tempfile.mkdtemp(prefix="gradscope-zygote-")

    def can_run(self, kind: str, argv: list, env: dict) -> bool:
        if os.environ.get("GRADSCOPE_TESTS_NO_FORK") or not hasattr(os, "fork"):
            return False
        if kind == "python" and _prints_stacks(argv[0]):
            return False
        keys = {k for k in set(env) | set(self.env) if k.startswith(STARTUP_PREFIXES)}
        return all(env.get(k) == self.env.get(k) for k in keys)

    def run(self, kind: str, argv: list[str], cwd, env: dict, timeout: float):
        """(returncode, stdout, stderr) as `subprocess.run(..., text=True)` would give them."""
        proc = self._server()
        out, err = os.path.join(self._scratch, "stdout"), os.path.join(self._scratch, "stderr")
        request = {"kind": kind, "argv": [str(a) for a in argv], "cwd": str(cwd), "env": env,
                   "stdout": out, "stderr": err}
        proc.stdin.write((json.dumps(request) + "\n").encode())
        proc.stdin.flush()
        pid = int(self._reply(proc, "pid", 30))
        try:
            status = int(self._reply(proc, "status", timeout))
        except subprocess.TimeoutExpired:
            os.kill(pid, 9)
            self._reply(proc, "status", 30)
            raise subprocess.TimeoutExpired(argv, timeout) from None
        encoding = locale.getpreferredencoding(False)
        with open(out, encoding=encoding) as stdout, open(err, encoding=encoding) as stderr:
            return os.waitstatus_to_exitcode(status), stdout.read(), stderr.read()

    def close(self) -> None:
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.wait(timeout=30)
            self._proc = None
        shutil.rmtree(self._scratch, ignore_errors=True)

    def _server(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen([sys.executable, str(SERVER)], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          cwd=self._cwd, env=self.env, bufsize=0)
            self._pending = b""
        return self._proc

    def _reply(self, proc: subprocess.Popen, word: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        fd = proc.stdout.fileno()
        while True:
            line, newline, rest = self._pending.partition(b"\n")
            if newline:
                self._pending = rest
                kind, _, value = line.decode().strip().partition(" ")
                if kind == word:
                    return value
                continue
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise subprocess.TimeoutExpired(word, timeout)
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError("the test fork server ended")
            self._pending += chunk


def _prints_stacks(script) -> bool:
    try:
        source = Path(script).read_text(errors="replace")
    except OSError:
        return False
    return any(word in source for word in STACK_PRINTERS)
