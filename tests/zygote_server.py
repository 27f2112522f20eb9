"""The fork server behind tests/zygote.py: imports torch once, then forks one child per program.

Protocol (one request at a time): the client writes a JSON line {kind, argv, cwd, env, stdout,
stderr} to this process's stdin; it answers "pid <n>" when the child is forked and
"status <n>" (the raw wait status) when the child is gone. `kind` is "python" (run argv[0] as
`python argv[0] argv[1:]` would) or "module" (as `python -m argv[0] argv[1:]` would).

This is a test helper, not part of gradscope: it has its own small copy of what the
interpreter does at start and end, independent of gradscope's runner, so that the two are
compared rather than the runner with itself.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import types

import torch  # noqa: F401  (the point of this server: imported once, before any fork)

try:  # gradscope's command line too (typer imports pydantic, when installed, on first use)
    import typer._adapters  # noqa: F401

    import gradscope.cli  # noqa: F401
    import gradscope.render  # noqa: F401
    import gradscope.rules  # noqa: F401
    import gradscope.runtime.session  # noqa: F401
except ImportError:  # a child that needs them says why
    pass


def main() -> None:
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # children get their own stdout; nothing of ours may land in it
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            os.close(replies)
            _child(request)  # never returns
        os.write(replies, f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        os.write(replies, f"status {status}\n".encode())


def _child(request: dict) -> None:
    status = 1
    try:
        out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        status = _run(request["kind"], request["argv"])
    except BaseException:  # noqa: BLE001  (a broken request: say so on the program's stderr)
        import traceback

        traceback.print_exc()
    os._exit(status)


def _run(kind: str, argv: list[str]) -> int:
    """Run the program as the interpreter would, then end as it ends; the exit status."""
    try:
        if kind == "module":
            import runpy

            sys.argv = ["-m", *argv[1:]]
            sys.path[0] = os.getcwd()
            runpy._run_module_as_main(argv[0], alter_argv=True)
        else:
            _run_script(argv)
        status = 0
    except SystemExit as exc:
        status = _system_exit_status(exc.code)
    except BaseException as exc:  # noqa: BLE001
        typ, value, tb = sys.exc_info()
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next  # without this helper's frames, as Python prints it
        sys.excepthook(typ, value.with_traceback(tb), tb)  # Python prints value.__traceback__
        status = 1
        if isinstance(exc, KeyboardInterrupt):  # Python ends by the signal itself
            _finalize()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
    return _finalize(status)


def _run_script(argv: list[str]) -> None:
    path = argv[0]
    with open(path, "rb") as file:
        source = file.read()
    code = compile(source, path, "exec", dont_inherit=True)
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.realpath(path))
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __builtins__=__builtins__)
    sys.modules["__main__"] = main
    exec(code, main.__dict__)  # noqa: S102


def _system_exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finalize(status: int = 0) -> int:
    """What Py_FinalizeEx does that a program can see: join threads, atexit, flush."""
    import atexit
    import threading

    try:
        threading._shutdown()
    except BaseException:  # noqa: BLE001
        pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            if stream is sys.stdout:
                status = 120
    return status


if __name__ == "__main__":
    main()
