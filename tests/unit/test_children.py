"""Child processes (children.py), the merged report's processes (render/merged.py) and nn.Module
frames in tracebacks (module_frames.py), in this process. The real child processes run in
tests/e2e/test_distributed.py and tests/realworld."""

from __future__ import annotations

import json
import sys
import traceback
from types import SimpleNamespace

import pytest

from gradscope.runtime import children
from gradscope.render import merged as merge_command
from gradscope.settings import Settings


@pytest.fixture
def plan():
    made = children.Plan(Settings(), run_options=["--json", "/out/r.json"], program=("script", "/w/train.py"))
    children._plan = made
    yield made
    children._plan = None


def test_a_command_that_runs_this_program_again_runs_it_under_gradscope(plan, monkeypatch):
    assert children._under_gradscope([sys.executable, "/w/train.py", "--lr", "1"]) == [
        sys.executable, "-m", "gradscope", "run", "--json", "/out/r.json", "/w/train.py", "--lr", "1"]
    monkeypatch.chdir("/")  # a relative path is the same program when it resolves to it
    assert children._under_gradscope((sys.executable, "w/train.py"))[1:4] == ["-m", "gradscope", "run"]


def test_other_commands_are_left_alone(plan):
    for command in (["/usr/bin/env", "/w/train.py"], [sys.executable, "/w/other.py"], [sys.executable, "-c", "1"],
                    f"{sys.executable} /w/train.py", [sys.executable]):
        assert children._under_gradscope(command) == command
    plan.program = ("module", "pkg.train")
    assert children._under_gradscope([sys.executable, "-m", "pkg.train", "x"])[4:] == [
        "--json", "/out/r.json", "-m", "pkg.train", "x"]
    assert children._under_gradscope([sys.executable, "-m", "pkg.other"]) == [sys.executable, "-m", "pkg.other"]


def test_a_child_is_named_by_its_rank_else_by_multiprocessing_s_number(monkeypatch):
    for name in ("RANK", "LOCAL_RANK", "WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)

    def _wrap(fn, i, args, error_file):  # torch.multiprocessing.spawn's wrapper, by module and name
        pass

    _wrap.__module__ = "torch.multiprocessing.spawn"
    spawned = SimpleNamespace(_target=_wrap, _args=(print, 3, (), "/tmp/e"), _identity=(4,))
    assert children.child_name(spawned) == "rank3"
    assert children.child_name(spawned, ddp_rank=1) == "rank1"  # the rank its DDP had comes first
    plain = SimpleNamespace(_target=print, _args=(), _identity=(2, 1))
    assert children.child_name(plain) == "child2-1"
    monkeypatch.setenv("RANK", "5")
    monkeypatch.setenv("WORLD_SIZE", "8")
    assert children.child_name(plain) == "rank5"


def test_a_helper_forked_by_a_rank_does_not_take_the_rank_s_name(monkeypatch):
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    helper = SimpleNamespace(_target=print, _args=(), _identity=(1,))
    assert children.child_name(helper, parent_rank=1) == "rank1-child1"
    assert children.child_name(helper, parent_rank=None) == "rank1"


def test_the_program_s_own_traceback_calls_pass_through_a_recorded_child_untouched():
    run = children._ChildRun.__new__(children._ChildRun)
    run.exception = None
    children._originals.setdefault("bootstrap", children._bootstrap)
    try:
        raise KeyError("the program's own, printed by itself")
    except KeyError:
        assert run._note_and_clean(sys._getframe().f_code) is None  # not multiprocessing's or torch's code
    assert run.exception is None


def _report(folder, name, findings=(), error=None, without_grad=None, backward_calls=2):
    data = {"schema": 1, "argv": ["t.py"], "exit_status": 1 if error else 0, "error": error,
            "findings": list(findings), "internal_errors": [],
            "summary": {"backward_calls": backward_calls, "parameters_without_grad": without_grad}}
    path = folder / name
    path.write_text(json.dumps(data))
    return str(path)


def test_the_launching_process_is_told_apart_from_the_ranks(tmp_path, capsys):
    finding = {"rule": "a", "severity": "error", "title": "a", "explanation": "x.", "fix": "y", "locations": []}
    relayed = {"type": "ProcessRaisedException", "message": "-- Process 0 terminated with the following error"}
    own = {"type": "RuntimeError", "message": "Expected to have finished reduction"}
    files = [_report(tmp_path, "report.json", error=relayed),
             _report(tmp_path, "report.rank1.json", [finding], own),
             _report(tmp_path, "report.rank0.json", [finding], own)]
    assert merge_command.print_report(files) == merge_command.PRINTED
    text = capsys.readouterr().err
    assert "3 report(s): ranks 0–1, the launching process" in text
    assert "ranks 0–1 failed: RuntimeError" in text
    assert "the launching process then raised ProcessRaisedException, quoting a worker's error" in text
    assert "[On every rank of 2.]" in text  # the parent found nothing: it does not count


def test_children_without_a_rank_are_named_as_children(tmp_path):
    reports = merge_command.load([_report(tmp_path, "r.child2.json"), _report(tmp_path, "r.child1.json"),
                                  _report(tmp_path, "r.rank1-child1.json")])
    assert [r.name for r in reports] == ["child 1", "child 2", "rank 1's child 1"]
    assert merge_command.who(reports[:2]) == "child 1, child 2"


def test_reports_written_without_a_suffix_keep_their_ranks(tmp_path):
    reports = merge_command.load([_report(tmp_path, f"report.rank{n}") for n in (10, 2)])
    assert [r.rank for r in reports] == [2, 10]


def test_ranks_whose_parameters_got_gradients_differently_are_said_to_diverge(tmp_path, capsys):
    files = [_report(tmp_path, "r.rank0.json", without_grad=[]),
             _report(tmp_path, "r.rank1.json", without_grad=["aux_head.bias", "aux_head.weight"])]
    merge_command.print_report(files)
    assert ("the ranks' parameters diverge: rank 0 gave every one a gradient; rank 1 left `aux_head.bias`, "
            "`aux_head.weight` without a gradient") in capsys.readouterr().err
    same = [_report(tmp_path, "s.rank0.json", without_grad=["a"]), _report(tmp_path, "s.rank1.json", without_grad=["a"])]
    merge_command.print_report(same)
    assert "diverge" not in capsys.readouterr().err


def test_unused_ddp_parameters_are_found_from_the_last_backward_s_graph_when_the_message_has_none():
    from gradscope.trace.locations import Site
    from gradscope.rules.python_errors import _unreached_by_last_backward
    from gradscope.trace.model import BackwardCall, Leaf, Node, Trace

    trace = Trace(argv=[])
    trace.ddp_parameters = ["body.weight", "head.weight", "aux_head.weight"]
    trace.leaves = {i: Leaf(i, f"module._forward_module.{name}", "parameter", (1,), "float32", None)
                    for i, name in enumerate(trace.ddp_parameters)}
    trace.nodes = {10: Node(10, "SumBackward0", "sum", None, 1, 0, next_ids=[11]),
                   11: Node(11, "AddmmBackward0", "linear", None, 0, 0, next_ids=[12], leaf_ids=[1]),
                   12: Node(12, "AddmmBackward0", "linear", None, 0, 0, leaf_ids=[0])}
    trace.backward_calls = [BackwardCall(0, "Tensor.backward", Site("/t.py", 9), 9, False, False, roots=[10])]
    assert _unreached_by_last_backward(trace) == ["aux_head.weight"]
    trace.leaves[3] = Leaf(3, "module.head.fc.weight", "parameter", (1,), "float32", None)
    trace.nodes[12].leaf_ids.append(3)
    trace.ddp_parameters += ["head.fc.weight", "fc.weight"]  # `fc.weight` is not `head.fc.weight`
    assert _unreached_by_last_backward(trace) == ["aux_head.weight", "fc.weight"]
    trace.backward_calls[0].roots = [99]  # its graph is not in the trace: nothing is claimed
    assert _unreached_by_last_backward(trace) == []


def test_a_module_call_in_a_traceback_shows_one_frame_as_without_gradscope():
    torch = pytest.importorskip("torch")
    from gradscope.recorder import Recorder
    from gradscope.runtime.runner import clean_exception

    class Fails(torch.nn.Module):
        def forward(self, x):
            raise ValueError("in forward")

    def call(module):
        try:
            module(torch.ones(1))
        except ValueError as exc:
            return exc

    plain = traceback.format_exception(call(Fails()))
    recorder = Recorder()
    recorder.start()
    try:
        recorded = call(Fails())
    finally:
        recorder.stop()
    assert any("in inner" in line for line in traceback.format_exception(recorded))  # gradscope's hooks
    clean_exception(recorded)
    assert traceback.format_exception(recorded) == plain

    hooked = Fails()
    hooked.register_forward_pre_hook(lambda module, args: None)  # plain Python shows `inner` here too
    plain_hooked = traceback.format_exception(call(hooked))
    exc = call(hooked)
    clean_exception(exc)
    assert traceback.format_exception(exc) == plain_hooked and any("in inner" in line for line in plain_hooked)
