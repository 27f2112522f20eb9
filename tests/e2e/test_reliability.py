"""Reliability (issue 7) beyond the property tests: ending by SIGTERM or sys.exit mid-training,
and bad trace files and scripts. Each bad input gets one line and a documented exit code."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT, _env, run_gradscope, run_python

TRAINING_WITH_HAZARD = textwrap.dedent('''\
    import sys, time
    import torch

    x = torch.randn(3, requires_grad=True)
    y = x.exp()
    y.add_(1)  # a hazard, recorded before the program ends
    print("ready", flush=True)
    print("still buffered when the program ends")
    if sys.argv[1] == "exit":
        for step in range(3):
            (x * 2).sum().backward()
            if step == 1:
                sys.exit(3)
    time.sleep(60)
''')


def _start(argv, cwd):
    # stdout block-buffered, as these programs expect (PYTHONUNBUFFERED would also let a line
    # after "ready" arrive in readline's chunk, where communicate() no longer sees it)
    env = {key: value for key, value in _env().items() if key != "PYTHONUNBUFFERED"}
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                            env=env, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_sigterm_ends_like_python_and_still_reports(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAINING_WITH_HAZARD)
    results = []
    for argv in ([sys.executable, str(script), "sleep"],
                 [sys.executable, "-m", "gradscope", "run", "--json", "r.json", str(script), "sleep"]):
        proc = _start(argv, tmp_path)
        assert proc.stdout.readline() == "ready\n"
        time.sleep(1)  # let it reach the sleep: a signal sent at once can find it still in line 7's print
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        results.append((proc.returncode, out, err))
    (plain_status, plain_out, _), (status, out, err) = results
    assert status == plain_status == -signal.SIGTERM
    assert out == plain_out  # the buffered line is lost in both, as Python loses it
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["exit_status"] == -signal.SIGTERM
    assert [f["rule"] for f in report["findings"]] == ["inplace-hazard"]
    assert "gradscope · inplace-hazard" in err
    stopped = report["stopped"]  # where SIGTERM found it: the sleep, in Python (the handler's frame)
    assert (stopped["line"], stopped["outside_python"], stopped["stack"][0]["function"]) == (14, False, "<module>")
    assert "gradscope: SIGTERM stopped the program at train.py:14 (`time.sleep(60)`)" in err


def test_sys_exit_inside_training(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAINING_WITH_HAZARD)
    plain = run_python(script, "exit", cwd=tmp_path)
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(script), "exit", cwd=tmp_path)
    assert traced.returncode == plain.returncode == 3
    assert traced.stdout == plain.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["exit_status"] == 3 and report["summary"]["backward_calls"] == 2


ERROR_THAT_BRINGS_SIGTERM = textwrap.dedent('''\
    import os, signal, time
    import torch

    class Failed(Exception):
        def __str__(self):  # runs while the traceback is shown: the program has ended
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)
            return "failed"

    x = torch.randn(3, requires_grad=True)
    x.exp().add_(1)
    raise Failed()
''')


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_sigterm_after_the_program_ended_waits_for_the_report(tmp_path):
    # torchrun stops the other ranks once one has failed: a rank that is showing its own error
    # then still writes its report, and dies by SIGTERM after it, as it would have.
    script = tmp_path / "train.py"
    script.write_text(ERROR_THAT_BRINGS_SIGTERM)
    plain = run_python(script, cwd=tmp_path)
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(script), cwd=tmp_path)
    assert traced.returncode == plain.returncode == -signal.SIGTERM
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["error"]["type"] == "Failed" and report["stopped"] is None
    assert [f["rule"] for f in report["findings"]] == ["inplace-hazard"]


STUCK_ON_STDERR = textwrap.dedent('''\
    import sys
    import torch

    x = torch.randn(3, requires_grad=True)
    (x * 2).sum().backward()
    print("ready", flush=True)
    if sys.argv[1] == "program":
        sys.stderr.write("x" * 200_000)  # blocks: nobody reads stderr
        sys.stderr.flush()
    raise RuntimeError("y" * 200_000)  # its traceback blocks likewise, as does gradscope's report after it
''')


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("where", ["program", "report"])
def test_sigterm_ends_a_run_stuck_writing_to_a_full_pipe(where, tmp_path):
    # A report stuck in C (here a write to a pipe nobody reads) must not keep the process alive:
    # it gets TermReport.REPORT_LIMIT (10 s), then the process dies by SIGTERM as plain Python does.
    script = tmp_path / "train.py"
    script.write_text(STUCK_ON_STDERR)
    for argv in ([sys.executable, str(script), where], [sys.executable, "-m", "gradscope", "run", str(script), where]):
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=_env(),
                                stdin=subprocess.DEVNULL)
        try:
            assert proc.stdout.readline() == b"ready\n"
            time.sleep(1.5)  # stuck by now
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == -signal.SIGTERM, argv
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()


PROGRAM_RESETS_SIGTERM = textwrap.dedent('''\
    import signal, threading, time
    import torch

    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as some libraries do
    threading.Thread(target=time.sleep, args=(30,)).start()  # not a daemon: the exit waits for it
    print("ready", flush=True)
''')


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_sigterm_reset_by_the_program_to_its_default_still_ends_it(tmp_path):
    # gradscope's watchdog (faulthandler.unregister) once put Python's handler back under the
    # program's SIG_DFL: the SIGTERM was then dropped ("Signal 15 ignored due to race condition").
    script = tmp_path / "resets.py"
    script.write_text(PROGRAM_RESETS_SIGTERM)
    for argv in ([sys.executable, str(script)], [sys.executable, "-m", "gradscope", "run", str(script)]):
        proc = _start(argv, tmp_path)
        try:
            assert proc.stdout.readline() == "ready\n"
            time.sleep(1)  # the program has ended; the interpreter waits for the thread
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=20)
            assert (proc.returncode, err) == (-signal.SIGTERM, ""), argv
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


FORK_THEN_SIGTERM = textwrap.dedent('''\
    import os, signal, time
    import torch

    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    time.sleep(0.5)
    os.kill(pid, signal.SIGTERM)
    _, status = os.waitpid(pid, 0)
    print("child", os.waitstatus_to_exitcode(status), flush=True)
    time.sleep(3)  # a SIGTERM meant for the child once ended the parent here
    print("parent still here")
''')


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork")
def test_a_forked_child_s_sigterm_is_the_child_s_alone(tmp_path):
    script = tmp_path / "forks.py"
    script.write_text(FORK_THEN_SIGTERM)
    plain = run_python(script, cwd=tmp_path, real=True)
    traced = run_gradscope("run", str(script), cwd=tmp_path, real=True)
    assert (traced.returncode, traced.stdout) == (plain.returncode, plain.stdout) == (0, "child -15\nparent still here\n")
    assert "SIGTERM" not in traced.stderr


def _trace_files(folder):
    good = folder / "good.json"
    good.write_text(json.dumps({"format": "gradscope-trace", "schema": 2, "trace": {"argv": ["x.py"]}}))
    packed = gzip.compress(json.dumps({"format": "gradscope-trace", "schema": 2, "trace": {"argv": []}}).encode())
    files = {
        "empty.json": b"",
        "truncated.json": good.read_bytes()[:20],
        "truncated.json.gz": packed[: len(packed) // 2],
        "other-tool.json": b'{"version": "2.1.0", "runs": []}',
        "newer.json": b'{"format": "gradscope-trace", "schema": 99}',
        "wrong-types.json": b'{"format": "gradscope-trace", "schema": 2, "trace": {"argv": 5}}',
        "older.json": b'{"format": "gradscope-trace", "schema": 1, "trace": {"argv": []}}',
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "binary.json": bytes(range(256)) * 4,
        "huge.json": b" " * 400_000 + good.read_bytes(),
        "bomb.json.gz": gzip.compress(b" " * 400_000),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return sorted(files)


TRACE_MESSAGES = {
    "empty.json": "is empty", "truncated.json": "it ends early", "truncated.json.gz": "truncated or damaged",
    "other-tool.json": "not a gradscope trace", "newer.json": "newer than this gradscope reads",
    "wrong-types.json": "damaged gradscope trace", "older.json": "from an older gradscope", "deep.json": "nested too deeply",
    "binary.json": "not valid JSON", "huge.json": "too large", "bomb.json.gz": "inflates beyond",
}


@pytest.mark.parametrize("command", ["graph", "check"])
def test_bad_trace_files_exit_2_with_one_line(command, tmp_path):
    env = {**_env(), "GRADSCOPE_MAX_TRACE_BYTES": "300000"}  # "huge" and "bomb" without gigabytes
    for name in _trace_files(tmp_path):
        proc = subprocess.run([sys.executable, "-m", "gradscope", command, name], capture_output=True,
                              text=True, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, timeout=120)
        assert proc.returncode == 2, (name, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr, (name, proc.stderr)
        assert TRACE_MESSAGES[name] in lines[0], (name, lines[0])


@pytest.mark.parametrize("content, words", [
    (bytes(range(256)), "cannot contain null bytes"),
    ("x = 'café'\n".encode("latin-1"), "codec can't decode"),
])
def test_binary_or_non_utf8_script_is_a_syntax_error_like_python(content, words, tmp_path):
    script = tmp_path / "bad.py"
    script.write_bytes(content)
    plain = run_python(script)
    traced = run_gradscope("run", str(script))
    assert traced.returncode == plain.returncode == 1
    (line,) = traced.stderr.strip().splitlines()
    assert line.startswith("gradscope: SyntaxError in ") and words in line and str(script) in line


def test_existing_outputs_are_replaced_whole(tmp_path):
    for name in ("r.json", "g.svg"):
        (tmp_path / name).write_text("old")
    sample = str(ROOT / "samples" / "inplace_plus_equals.py")
    run_gradscope("run", "--json", "r.json", sample, cwd=tmp_path)
    assert json.loads((tmp_path / "r.json").read_text())["schema"] == 1
    assert run_gradscope("graph", "-o", "g.svg", sample, cwd=tmp_path).returncode == 0
    assert (tmp_path / "g.svg").read_text().lstrip().startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []
