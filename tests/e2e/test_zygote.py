"""The suite's fork helper (tests/zygote.py) ends programs as a real interpreter does: it stands
in for `python` in the per-sample runs, so it is compared with `python` here."""

from __future__ import annotations

import textwrap

import pytest

from conftest import run_gradscope, run_python

PROGRAM = textwrap.dedent("""\
    import atexit, os, sys, threading, time
    print("argv", sys.argv[1:], "path0", sys.path[0] == os.path.dirname(os.path.realpath(__file__)))
    print("main", __name__, sys.modules["__main__"].__dict__ is globals(), __spec__, __package__)
    print("to stderr", file=sys.stderr)
    atexit.register(lambda: print("atexit ran"))
    how = sys.argv[1]
    if how == "thread":  # a non-daemon thread outlives the main module: Python waits for it
        threading.Thread(target=lambda: (time.sleep(0.2), print("thread done"))).start()
    elif how == "exit3":
        sys.exit(3)
    elif how == "exitmsg":
        sys.exit("goodbye")
    elif how == "exitnone":
        sys.exit(None)
    elif how == "raise":
        def inner():
            raise ValueError("failure")
        inner()
    elif how == "chained":
        try:
            {}["missing"]
        except KeyError as exc:
            raise RuntimeError("while handling") from exc
    elif how == "interrupt":
        raise KeyboardInterrupt
    elif how == "hook":
        sys.excepthook = lambda *a: print("own hook:", a[1], file=sys.stderr)
        raise ValueError("to the hook")
    print("end")
""")


@pytest.mark.parametrize("how", ["return", "thread", "exit3", "exitmsg", "exitnone", "raise", "chained",
                                 "interrupt", "hook"])
def test_a_forked_program_ends_as_under_python(how, tmp_path):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    real = run_python(script, how, cwd=tmp_path, real=True)
    forked = run_python(script, how, cwd=tmp_path)
    assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr)


def test_a_forked_gradscope_run_is_the_real_one(tmp_path):
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    real = run_gradscope("run", str(script), "chained", cwd=tmp_path, real=True)
    forked = run_gradscope("run", str(script), "chained", cwd=tmp_path)
    assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr)
