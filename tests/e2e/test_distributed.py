"""Distributed runs for real: 2 ranks, gloo on CPU, under torchrun (`torchrun --standalone ... --no-python
gradscope run`) and `gradscope run -m torch.distributed.run`. Each run has a hard timeout that
kills its whole process group. Marked `distributed` (a quick local run: -m "not distributed")."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import SAMPLES

pytestmark = pytest.mark.distributed

DISTRIBUTED = SAMPLES / "distributed"
TIMEOUT = 240


def _launch(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        # SIGTERM first: the launcher then stops its workers (each in a session of its own).
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        pytest.fail(f"the distributed run did not end within {TIMEOUT} s")
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


# torch 2.13's gloo sometimes aborts a rank at interpreter exit, after the program's last line
# ("terminate called without an active exception", SIGABRT): 2 of 15 plain torchrun runs of
# ddp_clean.py on a loaded 2-core machine, with or without a barrier before
# destroy_process_group. A run that ended that way is run again (twice at most) where the test
# needs a clean exit.
_TEARDOWN_ABORT = "terminate called without an active exception"


def _launch_to_the_end(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    for _ in range(3):
        run = _launch(argv, cwd)
        if run.returncode == 0 or _TEARDOWN_ABORT not in run.stderr:
            return run
    return run


def _torchrun(*argv: str) -> list[str]:
    return [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", *argv]


def _gradscope() -> list[str]:
    return [sys.executable, "-m", "gradscope"]


def _rank_lines(text: str) -> list[str]:
    # (two ranks share the pipe: one's line may land in the middle of the other's)
    return sorted(re.findall(r"rank \d+: weight sum -?[\d.]+", text))


def test_a_correct_ddp_loop_is_silent_and_prints_what_plain_torchrun_prints(tmp_path):
    plain = _launch_to_the_end(_torchrun(str(DISTRIBUTED / "ddp_clean.py")), tmp_path)
    recorded = _launch_to_the_end(_torchrun("--no-python", *_gradscope(), "run", "--json", "report.json",
                                 str(DISTRIBUTED / "ddp_clean.py")), tmp_path)
    assert plain.returncode == recorded.returncode == 0, recorded.stderr[-2000:]
    assert _rank_lines(recorded.stdout) == _rank_lines(plain.stdout) and len(_rank_lines(plain.stdout)) == 2
    for rank in (0, 1):  # each rank its own file: report.json -> report.rank<N>.json
        report = json.loads((tmp_path / f"report.rank{rank}.json").read_text())
        assert report["findings"] == [] and report["internal_errors"] == []
    assert not (tmp_path / "report.json").exists()


def test_unused_parameters_are_named_on_every_rank_and_merged(tmp_path):
    run = _launch([*_gradscope(), "run", "--json", "report.json", "-m", "torch.distributed.run", "--standalone",
                   "--nproc_per_node", "2", str(DISTRIBUTED / "ddp_unused_parameter.py")], tmp_path)
    assert run.returncode != 0
    script = str((DISTRIBUTED / "ddp_unused_parameter.py").resolve())
    for rank in (0, 1):
        report = json.loads((tmp_path / f"report.rank{rank}.json").read_text())
        (finding,) = report["findings"]
        assert finding["rule"] == "ddp-unused-parameters"
        assert finding["details"]["unused_parameters"] == ["aux_head.weight", "aux_head.bias"]
        assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
            (script, 28, "fix"), (script, 21, "fix"), (script, 22, "skipped"), (script, 21, "condition"),
            (script, 32, "failed")]
        assert f"[rank{rank}]: ╭─ 1. DDP: parameters that got no gradient" in run.stderr  # panels prefixed by rank
    merged = subprocess.run([*_gradscope(), "report", "report.rank0.json", "report.rank1.json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert merged.returncode == 0
    assert merged.stderr.count("gradscope · ddp-unused-parameters") == 1  # shown once, for both ranks
    assert "DDP: parameters that got no gradient (ranks 0–1)" in merged.stderr
    assert "ranks 0–1 failed: RuntimeError: Expected to have finished reduction" in merged.stderr


def test_reentrant_checkpointing_under_ddp_names_the_checkpoint_calls(tmp_path):
    run = _launch(_torchrun("--no-python", *_gradscope(), "run", "--json", "report.json",
                            str(DISTRIBUTED / "ddp_checkpoint_ready_twice.py")), tmp_path)
    assert run.returncode != 0
    script = str((DISTRIBUTED / "ddp_checkpoint_ready_twice.py").resolve())
    report = json.loads((tmp_path / "report.rank0.json").read_text())
    (finding,) = report["findings"]
    assert finding["rule"] == "ddp-marked-ready-twice"
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
        (script, 19, "fix"), (script, 26, "fix"), (script, 19, "checkpoint"), (script, 20, "checkpoint"),
        (script, 29, "backward")]
    assert "use_reentrant=False" in finding["fix"]


def test_two_forwards_of_a_ddp_module_with_buffers_before_one_backward_is_a_hazard(tmp_path):
    run = _launch(_torchrun("--no-python", *_gradscope(), "run", "--json", "report.json",
                            str(DISTRIBUTED / "ddp_buffers_two_forwards.py")), tmp_path)
    assert run.returncode == 0  # on CPU it does not fail; on CUDA it does
    script = str((DISTRIBUTED / "ddp_buffers_two_forwards.py").resolve())
    for rank in (0, 1):
        (finding,) = json.loads((tmp_path / f"report.rank{rank}.json").read_text())["findings"]
        assert finding["rule"] == "ddp-buffers-changed-between-forwards"
        assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
            (script, 16, "forward"), (script, 17, "again"), (script, 19, "backward")]


def test_an_optimizer_step_on_gradients_never_synchronized_is_named(tmp_path):
    run = _launch(_torchrun("--no-python", *_gradscope(), "run", "--json", "report.json",
                            str(DISTRIBUTED / "ddp_no_sync_every_step.py")), tmp_path)
    assert run.returncode == 0
    script = str((DISTRIBUTED / "ddp_no_sync_every_step.py").resolve())
    (finding,) = json.loads((tmp_path / "report.rank0.json").read_text())["findings"]
    assert finding["rule"] == "ddp-step-without-sync"
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
        (script, 18, "context"), (script, 20, "backward"), (script, 21, "step")]


def test_a_rank_that_fails_first_is_told_apart_from_the_rank_whose_collective_then_broke(tmp_path):
    # torchrun stops the other ranks (SIGTERM) once it sees that one has failed (it looks every
    # 0.1 s by default). Rank 0's own error, from its broken all-reduce, must reach Python before
    # that for this test to see it, so torchrun looks every 5 s here. (A SIGTERM that comes after
    # the program's end waits for the report: test_reliability.py.)
    run = _launch(_torchrun("--monitor-interval", "5", "--no-python", *_gradscope(), "run", "--json", "report.json",
                            str(DISTRIBUTED / "ddp_rank_fails_first.py")), tmp_path)
    assert run.returncode != 0
    script = str((DISTRIBUTED / "ddp_rank_fails_first.py").resolve())
    rank0 = json.loads((tmp_path / "report.rank0.json").read_text())
    (finding,) = rank0["findings"]
    assert finding["rule"] == "ddp-peer-stopped"
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [(script, 21, "backward")]
    rank1 = json.loads((tmp_path / "report.rank1.json").read_text())
    assert rank1["error"]["message"].startswith("mat1 and mat2 shapes cannot be multiplied")
    merged = subprocess.run([*_gradscope(), "report", "report.rank0.json", "report.rank1.json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert "rank 1 failed: RuntimeError: mat1 and mat2 shapes cannot be multiplied" in merged.stderr
    assert "rank 0 then failed waiting for a peer (after the failure above)" in merged.stderr
    assert "diverge" not in merged.stderr


def test_a_rank_that_ran_out_of_batches_first_shows_as_divergence(tmp_path):
    # Rank 1 ends cleanly, but torch 2.13's gloo may abort it at exit (see _TEARDOWN_ABORT):
    # torchrun then stops rank 0 too, possibly before its error reaches Python. As above.
    run = _launch(_torchrun("--monitor-interval", "5", "--no-python", *_gradscope(), "run", "--json", "report.json",
                            str(DISTRIBUTED / "ddp_uneven_batches.py")), tmp_path)
    assert run.returncode != 0
    script = str((DISTRIBUTED / "ddp_uneven_batches.py").resolve())
    (finding,) = json.loads((tmp_path / "report.rank0.json").read_text())["findings"]
    assert finding["rule"] == "ddp-peer-stopped"
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [(script, 21, "backward")]
    assert json.loads((tmp_path / "report.rank1.json").read_text())["findings"] == []
    merged = subprocess.run([*_gradscope(), "report", "report.rank0.json", "report.rank1.json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert "rank 0 failed waiting for a peer that had stopped without an error of its own" in merged.stderr
    assert "the ranks diverge: rank 0 made 3 backward calls, rank 1 made 2 backward calls" in merged.stderr


def test_a_hanging_rank_stopped_by_the_launcher_s_sigterm_says_where_each_rank_was(tmp_path):
    script = str((DISTRIBUTED / "ddp_rank_hangs.py").resolve())
    argv = _torchrun("--no-python", *_gradscope(), "run", "--json", "report.json", script)
    process = subprocess.Popen(argv, cwd=tmp_path, env={**os.environ, "OMP_NUM_THREADS": "1"}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    # Both pipes read by threads: a deadline holds even if nothing is printed, and stderr never fills.
    lines_out, err_chunks = queue.Queue(), []
    threading.Thread(target=lambda: [lines_out.put(line) for line in process.stdout], daemon=True).start()
    err_reader = threading.Thread(target=lambda: err_chunks.append(process.stderr.read()), daemon=True)
    err_reader.start()
    try:
        started, deadline = set(), time.monotonic() + TIMEOUT
        while len(started) < 2 and time.monotonic() < deadline:  # each rank printed it just before it blocks
            try:
                started |= set(re.findall(r"rank \d: step 1", lines_out.get(timeout=1)))
            except queue.Empty:
                continue
        assert len(started) == 2, f"ranks at step 1: {sorted(started)}"
        time.sleep(2)  # rank 1 asleep, rank 0 waiting for it in the forward
        process.send_signal(signal.SIGTERM)  # as a scheduler stops the job: torchrun stops its ranks
        process.wait(timeout=60)
        err_reader.join(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode != 0
    err = "".join(err_chunks)
    lines = {}
    for rank in (0, 1):
        stopped = json.loads((tmp_path / f"report.rank{rank}.json").read_text())["stopped"]
        assert stopped["signal"] == "SIGTERM" and stopped["path"] == script, err[-2000:]
        lines[rank] = stopped["line"]
    assert lines == {0: 24, 1: 23}  # rank 0 in the forward that waits for rank 1; rank 1 in its sleep
    assert f"[rank1]: gradscope: SIGTERM stopped the program at {Path(script).name}:23 (`time.sleep(600)" in err
    merged = subprocess.run([*_gradscope(), "report", "report.rank0.json", "report.rank1.json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert "gradscope: SIGTERM stopped rank 1 at ddp_rank_hangs.py:23 (`time.sleep(600)  # stuck`)" in merged.stderr


# ---------------------------------------------------------------- processes the program starts itself
def test_workers_started_by_mp_spawn_are_recorded_and_named_by_rank(tmp_path):
    script = str((DISTRIBUTED / "mp_spawn_unused_parameter.py").resolve())
    env_port = {"SAMPLE_PORT": "29541"}
    plain = _launch_env([sys.executable, script], tmp_path, env_port)
    run = _launch_env([*_gradscope(), "run", "--json", "out/report.json", script], tmp_path, env_port)
    assert plain.returncode == run.returncode == 1
    assert _without_gradscope(run.stderr) == _comparable(plain.stderr)  # the parent's traceback, the workers' text
    for rank in (0, 1):
        report = json.loads((tmp_path / "out" / f"report.rank{rank}.json").read_text())
        (finding,) = report["findings"]
        assert finding["details"]["unused_parameters"] == ["aux_head.weight", "aux_head.bias"]
        assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == [
            (script, 34, "fix"), (script, 25, "fix"), (script, 26, "skipped"), (script, 25, "condition"),
            (script, 38, "failed")]
    parent = json.loads((tmp_path / "out" / "report.json").read_text())
    assert parent["findings"] == [] and parent["error"]["type"] == "ProcessRaisedException"
    merged = subprocess.run([*_gradscope(), "report", *sorted(map(str, (tmp_path / "out").glob("*.json")))],
                            capture_output=True, text=True, timeout=60)
    assert "ddp-unused-parameters" in merged.stderr and "(ranks 0–1)" in merged.stderr
    assert "the launching process then raised ProcessRaisedException" in merged.stderr


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_multiprocessing_worker_is_recorded_with_any_start_method(tmp_path, method):
    script = str((DISTRIBUTED / "mp_process_inplace.py").resolve())
    plain = _launch_env([sys.executable, script, method], tmp_path, {})
    run = _launch_env([*_gradscope(), "run", "--json", "report.json", script, method], tmp_path, {})
    assert plain.returncode == run.returncode == 0 and plain.stdout == run.stdout == "worker exit code: 1\n"
    assert _without_gradscope(run.stderr) == _comparable(plain.stderr)  # "Process ...:" and its traceback, as Python's
    assert "[child1]: ╭─ 1. A tensor saved for backward was modified in place" in run.stderr
    (finding,) = json.loads((tmp_path / "report.child1.json").read_text())["findings"]
    assert [(loc["line"], loc["role"]) for loc in finding["locations"]] == [(14, "fix"), (13, "saved"),
                                                                           (14, "modified"), (15, "backward")]
    assert json.loads((tmp_path / "report.json").read_text())["findings"] == []  # the parent ran no autograd


def test_a_forked_worker_keeps_the_program_s_own_modes_and_no_stale_error(tmp_path):
    script = str(Path(__file__).parent / "probes" / "fork_inside_device_mode.py")
    plain = _launch_env([sys.executable, script], tmp_path, {})
    run = _launch_env([*_gradscope(), "run", "--json", "r.json", script], tmp_path, {})
    assert plain.stdout == run.stdout == "child device: meta\nexit 0\n" and plain.stderr == run.stderr == ""
    child = json.loads((tmp_path / "r.child1.json").read_text())
    assert child["error"] is None and child["exit_status"] == 0 and child["findings"] == []


def test_a_worker_stopped_after_its_own_error_reports_that_error(tmp_path):
    script = str(Path(__file__).parent / "probes" / "worker_fails_then_stopped.py")
    plain = _launch_env([sys.executable, script], tmp_path, {})
    run = _launch_env([*_gradscope(), "run", "--json", "r.json", script], tmp_path, {})
    assert plain.stdout == run.stdout == f"worker exit code: {-signal.SIGTERM}\n"
    child = json.loads((tmp_path / "r.child1.json").read_text())
    assert (child["error"]["type"], child["error"]["line"], child["stopped"]) == ("RuntimeError", 16, None)
    assert [f["rule"] for f in child["findings"]] == ["backward-through-freed-graph"]


def _launch_env(argv, cwd, extra):
    old = {k: os.environ.get(k) for k in extra}
    os.environ.update(extra)
    try:
        return _launch(argv, cwd)
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _without_gradscope(stderr: str) -> str:
    """stderr without the children's panels (lines prefixed `[rank0]: ` / `[child1]: `)."""
    return _comparable("".join(line for line in stderr.splitlines(keepends=True)
                               if not re.match(r"\[(rank|child)\d+\]: ", line)))


def _comparable(stderr: str) -> str:
    # process ids, torch's timestamps, which worker failed first, whether the other was still
    # alive for mp.spawn to stop it, and the order of two workers' lines
    stderr = "".join(line for line in stderr.splitlines(keepends=True) if "Terminating process" not in line)
    text = re.sub(r"\b\d{3,}\b", "N", re.sub(r"\d\d:\d\d:\d\d\.\d+", "T", stderr))
    text = re.sub(r"(Process|rank) \d\b", r"\1 K", text)
    return "\n".join(sorted(text.splitlines()))
