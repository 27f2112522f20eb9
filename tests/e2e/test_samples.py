"""Every sample, run by `gradscope run --json` in a subprocess: the rule and the exact lines."""

from __future__ import annotations

import pytest

from conftest import SAMPLES, run_python

# sample -> (rule, [(file relative to samples/, line, role), ...] in report order)
EXPECTED = {
    "inplace_index_assign.py": ("inplace-modified-saved-tensor", [
        ("inplace_index_assign.py", 9, "created"), ("inplace_index_assign.py", 12, "saved"),
        ("inplace_index_assign.py", 13, "modified"), ("inplace_index_assign.py", 16, "backward")]),
    "inplace_plus_equals.py": ("inplace-modified-saved-tensor", [
        ("inplace_plus_equals.py", 5, "saved"), ("inplace_plus_equals.py", 6, "modified"),
        ("inplace_plus_equals.py", 7, "backward")]),
    "inplace_masked_fill.py": ("inplace-modified-saved-tensor", [
        ("inplace_masked_fill.py", 6, "created"), ("inplace_masked_fill.py", 7, "saved"),
        ("inplace_masked_fill.py", 8, "modified"), ("inplace_masked_fill.py", 10, "backward")]),
    "inplace_detach_alias.py": ("inplace-modified-saved-tensor", [
        ("inplace_detach_alias.py", 5, "saved"), ("inplace_detach_alias.py", 7, "modified"),
        ("inplace_detach_alias.py", 8, "backward")]),
    "relu_inplace_after_sigmoid.py": ("inplace-modified-saved-tensor", [
        ("relu_inplace_after_sigmoid.py", 14, "saved"), ("relu_inplace_after_sigmoid.py", 15, "modified"),
        ("relu_inplace_after_sigmoid.py", 21, "backward")]),
    "residual_inplace.py": ("inplace-modified-saved-tensor", [
        ("lib/blocks.py", 15, "saved"), ("lib/blocks.py", 16, "modified"),
        ("residual_inplace.py", 19, "backward")]),
    "gan_step_between_backwards.py": ("inplace-modified-saved-tensor", [
        ("gan_step_between_backwards.py", 20, "saved"), ("gan_step_between_backwards.py", 24, "modified"),
        ("gan_step_between_backwards.py", 28, "backward")]),
    "embedding_copyslices.py": ("inplace-modified-saved-tensor", [
        ("embedding_copyslices.py", 13, "created"), ("embedding_copyslices.py", 14, "saved"),
        ("embedding_copyslices.py", 16, "modified"), ("embedding_copyslices.py", 18, "backward")]),
    "inplace_leaf_under_no_grad.py": ("inplace-modified-saved-tensor", [
        ("inplace_leaf_under_no_grad.py", 7, "created"), ("inplace_leaf_under_no_grad.py", 8, "saved"),
        ("inplace_leaf_under_no_grad.py", 10, "modified"), ("inplace_leaf_under_no_grad.py", 14, "backward")]),
    "backward_twice_same_loss.py": ("backward-through-freed-graph", [
        ("backward_twice_same_loss.py", 6, "created"), ("backward_twice_same_loss.py", 7, "freed"),
        ("backward_twice_same_loss.py", 9, "backward")]),
    "backward_twice_shared.py": ("backward-through-freed-graph", [
        ("backward_twice_shared.py", 5, "created"), ("backward_twice_shared.py", 6, "used"),
        ("backward_twice_shared.py", 7, "freed"), ("backward_twice_shared.py", 9, "backward")]),
    "rnn_hidden_state.py": ("backward-through-freed-graph", [
        ("rnn_hidden_state.py", 13, "created"), ("rnn_hidden_state.py", 13, "used"),
        ("rnn_hidden_state.py", 16, "freed"), ("rnn_hidden_state.py", 16, "backward")]),
    "gan_fake_not_detached.py": ("backward-through-freed-graph", [
        ("gan_fake_not_detached.py", 7, "created"), ("gan_fake_not_detached.py", 9, "used"),
        ("gan_fake_not_detached.py", 8, "freed"), ("gan_fake_not_detached.py", 9, "backward")]),
    "forward_outside_loop.py": ("backward-through-freed-graph", [
        ("forward_outside_loop.py", 11, "created"), ("forward_outside_loop.py", 15, "used"),
        ("forward_outside_loop.py", 16, "freed"), ("forward_outside_loop.py", 16, "backward")]),
    "manual_sgd_step.py": ("inplace-on-leaf", [
        ("manual_sgd_step.py", 6, "created"), ("manual_sgd_step.py", 15, "modified")]),
    "leaf_slice_assign.py": ("inplace-on-leaf", [
        ("leaf_slice_assign.py", 4, "created"), ("leaf_slice_assign.py", 6, "modified")]),
    "init_weights_inplace.py": ("inplace-on-leaf", [
        ("init_weights_inplace.py", 9, "created"), ("init_weights_inplace.py", 13, "modified")]),
    "embedding_padding_row.py": ("inplace-on-leaf", [
        ("embedding_padding_row.py", 5, "created"), ("embedding_padding_row.py", 6, "view"),
        ("embedding_padding_row.py", 6, "modified")]),
    "backward_grad_shape_mismatch.py": ("backward-error", [
        ("backward_grad_shape_mismatch.py", 9, "created"), ("backward_grad_shape_mismatch.py", 10, "backward")]),
}

CLEAN = ["clean_training_loop.py", "clean_rnn_detach.py", "clean_gan.py", "seed_leaf_retain_grad_hooks.py",
         "seed_retain_graph_and_grads.py", "seed_no_grad_detach.py", "seed_copyslices_clean.py"]


def test_every_sample_is_covered():
    scripts = {p.name for p in SAMPLES.glob("*.py")}
    assert scripts == set(EXPECTED) | set(CLEAN)


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_diagnosis_names_the_lines(sample, gradscope_run):
    rule, lines = EXPECTED[sample]
    result = gradscope_run(SAMPLES / sample)
    plain = run_python(SAMPLES / sample)

    assert result.returncode == plain.returncode == 1
    assert result.stdout == plain.stdout
    report = result.report
    assert report["schema"] == 1 and report["exit_status"] == 1
    assert report["internal_errors"] == []
    assert report["error"]["type"] == "RuntimeError"
    assert report["error"]["message"] == plain.stderr.strip().splitlines()[-1].split(": ", 1)[1]
    assert [f["rule"] for f in report["findings"]] == [rule]
    finding = report["findings"][0]
    assert finding["details"]["uncaught"] is True
    expected = [(str((SAMPLES / f).resolve()), line, role) for f, line, role in lines]
    assert [(loc["path"], loc["line"], loc["role"]) for loc in finding["locations"]] == expected
    for loc in finding["locations"]:
        assert loc["code"], "every named line shows its source"
    # The human report follows Python's own traceback on stderr.
    assert result.stderr.startswith(plain.stderr)
    assert finding["title"] in result.stderr


@pytest.mark.parametrize("sample", CLEAN)
def test_clean_sample_has_no_findings(sample, gradscope_run):
    result = gradscope_run(SAMPLES / sample)
    plain = run_python(SAMPLES / sample)
    assert result.returncode == plain.returncode == 0
    assert result.stdout == plain.stdout
    assert result.stderr == plain.stderr
    assert result.report["findings"] == [] and result.report["internal_errors"] == []
    assert result.report["error"] is None
