"""Per-rank outputs and the merged report (runtime/distributed.py, render/merged.py), without torch."""

from __future__ import annotations

import json

from gradscope.render import merged as merge_command
from gradscope.runtime.distributed import launch_rank, per_rank_path, with_rank_prefix


def test_the_rank_goes_before_the_suffix():
    assert per_rank_path("report.json", 1) == "report.rank1.json"
    assert per_rank_path("out/train.trace.json.gz", 0) == "out/train.rank0.trace.json.gz"
    assert per_rank_path("flow.svg", 3) == "flow.rank3.svg"
    assert per_rank_path("a.b.json", 2) == "a.b.rank2.json"
    assert per_rank_path("noext", 1) == "noext.rank1"
    assert per_rank_path("report.json", None) == "report.json" and per_rank_path(None, 1) is None


def test_the_rank_comes_from_the_launcher_s_environment():
    assert launch_rank({"RANK": "1", "WORLD_SIZE": "2"}) == 1
    assert launch_rank({"LOCAL_RANK": "0", "WORLD_SIZE": "4"}) == 0
    assert launch_rank({"RANK": "0", "WORLD_SIZE": "1"}) is None  # one process: nothing to keep apart
    assert launch_rank({}) is None and launch_rank({"RANK": "x", "WORLD_SIZE": "2"}) is None


def test_console_lines_are_prefixed_with_the_rank():
    assert with_rank_prefix("a\nb\n", 1) == "[rank1]: a\n[rank1]: b\n"
    assert with_rank_prefix("a\n", None) == "a\n"


def _report(path, rank, findings, error=None, backward_calls=3):
    data = {"schema": 1, "argv": ["t.py"], "exit_status": 1 if error else 0, "error": error,
            "findings": findings, "internal_errors": [], "summary": {"backward_calls": backward_calls}}
    file = path / f"report.rank{rank}.json"
    file.write_text(json.dumps(data))
    return str(file)


def _finding(rule, line):
    return {"rule": rule, "severity": "error", "title": rule, "explanation": "x.", "fix": "y",
            "locations": [{"path": "/t.py", "line": line, "role": "failed", "note": "", "function": "",
                           "stack": [{"path": "/t.py", "line": line, "function": ""}]}]}


def test_the_merged_report_shows_each_finding_once_and_which_rank_failed_first(tmp_path, capsys):
    own = {"type": "RuntimeError", "message": "one of the variables needed for gradient computation ..."}
    follow = {"type": "DistBackendError", "message": "[../gloo/transport/tcp/pair.cc:534] Connection closed by peer"}
    files = [_report(tmp_path, 0, [_finding("a", 3)], follow),
             _report(tmp_path, 1, [_finding("a", 3), _finding("b", 5)], own)]
    assert merge_command.print_report(files) == merge_command.PRINTED
    text = capsys.readouterr().err
    assert "rank 1 failed: RuntimeError: one of the variables" in text
    assert "rank 0 then failed waiting for a peer (after the failure above): DistBackendError" in text
    assert text.count("gradscope · a") == 1 and "a (ranks 0–1)" in text and "b (rank 1)" in text
    assert "[On rank 1 only of 2.]" in text


def test_a_file_that_is_not_a_report_is_bad_input(tmp_path, capsys):
    (tmp_path / "x.json").write_text("[1, 2]")
    assert merge_command.print_report([str(tmp_path / "x.json")]) == merge_command.BAD_INPUT
    assert "is not a gradscope JSON report" in capsys.readouterr().err


def test_the_buffer_hazard_needs_two_broadcasting_forwards_before_one_backward():
    from gradscope.trace.locations import Site
    from gradscope.rules import ddp
    from gradscope.trace.model import BackwardCall, DdpForward, Trace

    def trace(*forwards, backward_index=0):
        t = Trace(argv=[])
        t.ddp_forwards = [DdpForward(Site("/t.py", line), before, broadcasts) for line, before, broadcasts in forwards]
        t.backward_calls = [BackwardCall(backward_index, "Tensor.backward", Site("/t.py", 9), 9, False, False)]
        return t

    assert [f.rule for f in ddp.buffers_between_forwards(trace((3, 0, True), (4, 0, True)))] == [ddp.BUFFERS_RULE_ID]
    assert ddp.buffers_between_forwards(trace((3, 0, True), (4, 1, True), backward_index=1)) == []  # backward between
    assert ddp.buffers_between_forwards(trace((3, 0, False), (4, 0, False))) == []  # no buffers, or no grad


def test_ranks_that_made_different_numbers_of_backward_calls_are_said_to_diverge(tmp_path, capsys):
    files = [_report(tmp_path, 0, [], backward_calls=3), _report(tmp_path, 1, [], backward_calls=2)]
    merge_command.print_report(files)
    text = capsys.readouterr().err
    assert "the ranks diverge: rank 0 made 3 backward calls, rank 1 made 2 backward calls" in text
    assert "no findings on any rank" in text


def test_a_step_is_unsynchronized_only_when_no_backward_before_it_synchronized():
    from gradscope.trace.locations import Site
    from gradscope.rules import ddp
    from gradscope.trace.model import BackwardCall, OptimizerStep, Trace

    def trace(*synced):
        t = Trace(argv=[])
        t.backward_calls = [BackwardCall(i, "Tensor.backward", Site("/t.py", 5), i, False, False, ddp_synced=s)
                            for i, s in enumerate(synced)]
        t.first_steps = [OptimizerStep(100, Site("/t.py", 9), "SGD")]
        return t

    assert [f.rule for f in ddp.step_without_sync(trace(False, False))] == [ddp.NO_SYNC_RULE_ID]
    assert ddp.step_without_sync(trace(False, False, True)) == []  # accumulation done right
    assert ddp.step_without_sync(trace(None, None)) == []  # no DDP


def test_a_running_statistic_changed_by_nothing_recorded_after_two_ddp_forwards_is_ddp_s_broadcast():
    """The CUDA form of pytorch/pytorch#22095: DDP's buffer broadcast (C++) bumps the version of
    BatchNorm's running_mean between two forwards; the backward of the first then fails."""
    from gradscope.trace.locations import Site
    from gradscope.rules import ddp, inplace_saved
    from gradscope.trace.model import BackwardCall, DdpForward, Node, Trace, VersionFailure

    trace = Trace(argv=[])
    trace.nodes = {5: Node(5, "CudnnBatchNormBackward0", "batch_norm", Site("/gan.py", 12), 3, 0)}
    trace.ddp_forwards = [DdpForward(Site("/gan.py", 30), 0, True), DdpForward(Site("/gan.py", 31), 0, True)]
    call = BackwardCall(0, "Tensor.backward", Site("/gan.py", 33), 40, False, False)
    call.version_failure = VersionFailure(5, "_saved_running_mean", 2, 3)
    trace.backward_calls = [call]
    (finding,) = inplace_saved.check(trace)
    assert [(loc.line, loc.role) for loc in finding.locations] == [(12, "saved"), (30, "forward"), (31, "again"),
                                                                   (33, "backward")]
    assert "DistributedDataParallel changed it: called again at gan.py:31" in finding.explanation
    assert "`running_mean` is a BatchNorm running statistic" in finding.explanation
    assert "broadcast_buffers=False" in finding.fix
    assert ddp.buffers_between_forwards(trace) == []  # the error's explanation says it; no second finding
    call.version_failure = VersionFailure(5, "_saved_input", 2, 3)  # another saved tensor: not DDP's doing
    assert "DistributedDataParallel" not in inplace_saved.check(trace)[0].explanation


def test_a_backward_whose_collective_broke_is_the_echo_of_another_rank_s_failure():
    """gloo's "Connection closed by peer" in a DDP backward: the rank is not at fault; the finding
    names the backward line only, and the generic backward-error rule stays quiet."""
    from gradscope.trace.locations import Site
    from gradscope.rules import backward_error, backward_failures
    from gradscope.trace.model import BackwardCall, ErrorInfo, Trace

    trace = Trace(argv=[])
    call = BackwardCall(2, "Tensor.backward", Site("/t.py", 17), 9, False, False, ddp_synced=True)
    call.error = ErrorInfo("RuntimeError", "[/__w/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                                           "Connection closed by peer [127.0.0.1]:45222. This is typically caused by")
    trace.backward_calls = [call]
    (finding,) = backward_failures.check(trace)
    assert finding.rule == "ddp-peer-stopped"
    assert [(loc.line, loc.role) for loc in finding.locations] == [(17, "backward")]
    assert "DistributedDataParallel's gradient all-reduce" in finding.explanation
    assert "failed: Connection closed by peer [127.0.0.1]:45222. Nothing in this rank's graph" in finding.explanation
    assert backward_error.check(trace) == []


def test_a_rank_that_stopped_at_its_own_error_is_not_said_to_diverge(tmp_path, capsys):
    own = {"type": "RuntimeError", "message": "mat1 and mat2 shapes cannot be multiplied (4x4 and 8x1)"}
    follow = {"type": "RuntimeError", "message": "[/x/gloo/transport/tcp/pair.cc:553] Connection closed by peer "
                                                 "[127.0.0.1]:1. This is typically caused by a remote worker"}
    merge_command.print_report([_report(tmp_path, 0, [], follow, backward_calls=2),
                                _report(tmp_path, 1, [], own, backward_calls=1)])
    text = capsys.readouterr().err
    assert "rank 1 failed: RuntimeError: mat1 and mat2" in text
    assert ("rank 0 then failed waiting for a peer (after the failure above): RuntimeError: Connection closed by "
            "peer [127.0.0.1]:1.\n") in text
    assert "diverge" not in text


def test_a_rank_that_left_early_without_an_error_shows_as_divergence(tmp_path, capsys):
    follow = {"type": "RuntimeError", "message": "[/x/gloo/transport/tcp/pair.cc:553] Connection closed by peer x"}
    merge_command.print_report([_report(tmp_path, 0, [], follow, backward_calls=3),
                                _report(tmp_path, 1, [], None, backward_calls=2)])
    text = capsys.readouterr().err
    assert "rank 0 failed waiting for a peer that had stopped without an error of its own" in text
    assert "the ranks diverge: rank 0 made 3 backward calls, rank 1 made 2 backward calls" in text


def test_where_a_signal_stopped_each_rank_groups_the_ranks_at_the_same_line(tmp_path, capsys):
    def stopped(line, code, outside=False):
        return {"signal": "SIGTERM", "outside_python": outside, "path": "/job/train.py", "line": line,
                "code": code, "stack": []}

    files = []
    for rank, where in enumerate([stopped(23, "loss = model(x)", True), stopped(22, "batch = next(it)"),
                                  stopped(23, "loss = model(x)", True)]):
        files.append(_report(tmp_path, rank, []))
        data = json.loads((tmp_path / f"report.rank{rank}.json").read_text())
        data["stopped"] = where
        (tmp_path / f"report.rank{rank}.json").write_text(json.dumps(data))
    merge_command.print_report(files)
    text = capsys.readouterr().err
    assert ("gradscope: SIGTERM stopped ranks 0, 2 while waiting in C++ (a collective, a lock or a future) at "
            "train.py:23 (`loss = model(x)`)\ngradscope: SIGTERM stopped rank 1 at train.py:22 (`batch = next(it)`)"
            ) in text


def test_the_stack_of_a_frame_ends_in_the_user_s_innermost_line():
    import sys

    from gradscope.trace.locations import stack_sites

    def inner():
        return stack_sites(sys._getframe())

    stack, user = inner()
    assert stack[-1].function == "inner" and user == stack[-1] and user.path == __file__
    assert stack[-2].function == "test_the_stack_of_a_frame_ends_in_the_user_s_innermost_line"
    assert len(stack_sites(sys._getframe(), limit=1)[0]) == 1


def test_the_user_s_line_is_found_beyond_the_frames_kept_and_trampolines_are_left_out():
    import sys
    import textwrap

    from gradscope.recorder.as_caller import MARK
    from gradscope.trace.locations import stack_sites

    found = []

    def predicate(line):  # called by textwrap: the innermost frames are the standard library's
        found.append(stack_sites(sys._getframe(1), limit=1))
        return True

    textwrap.indent("x\n", "  ", predicate)
    (stack, user), = found
    assert len(stack) == 1 and stack[0].path.endswith("textwrap.py")
    assert user.path == __file__ and user.function == "test_the_user_s_line_is_found_beyond_the_frames_kept_and_trampolines_are_left_out"

    namespace = {}
    exec(f"def trampoline({MARK}):\n    return {MARK}()\n", namespace)  # as as_caller's call-site code is marked
    stack, user = namespace["trampoline"](lambda: stack_sites(sys._getframe()))
    assert "trampoline" not in [site.function for site in stack]


def test_only_a_collective_broken_by_a_peer_counts_as_the_peer_s_doing():
    from gradscope.trace.wording import BROKEN_COLLECTIVE, broken_collective_words

    assert BROKEN_COLLECTIVE.search("[../gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for "
                                    "recv operation to complete")
    assert BROKEN_COLLECTIVE.search("[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5)")
    assert BROKEN_COLLECTIVE.search("DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. "
                                    "Did the remote server shutdown or crash?")  # the TCPStore's host went away
    # the rank's own mistakes, in the same libraries' words
    assert not BROKEN_COLLECTIVE.search("NCCL error in: ProcessGroupNCCL.cpp:1970, invalid usage (run with "
                                        "NCCL_DEBUG=WARN for details), NCCL version 2.21.5")
    assert not BROKEN_COLLECTIVE.search("[../gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 8 vs 4")
    assert broken_collective_words(None) == ""


def test_a_stop_record_with_odd_fields_is_still_told(tmp_path, capsys):
    paths = []
    for rank, stopped in enumerate([{"signal": None, "path": ["x"], "line": [3]}, {"outside_python": True}]):
        path = _report(tmp_path, rank, [])
        data = json.loads(open(path).read())
        open(path, "w").write(json.dumps({**data, "stopped": stopped}))
        paths.append(path)
    assert merge_command.print_report(paths) == merge_command.PRINTED
    text = capsys.readouterr().err
    assert "a signal stopped rank 0" in text and "a signal stopped rank 1 while waiting in C++" in text
