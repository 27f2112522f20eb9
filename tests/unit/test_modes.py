"""Mode provenance and the never-run step: hand-built traces and source files, no torch."""

from __future__ import annotations

from gradscope.analyses import modes
from gradscope.analyses.settings import options_read
from gradscope.rules import ledger as ledger_rules
from gradscope.trace.locations import Site
from gradscope.trace.model import BackwardCall, ErrorInfo, Freeze, Leaf, ModeSet, ModeSwitch, ModuleCall, Node, ParamStep, Trace
from gradscope.trace.source_search import mode_calls, names_read, option_settings, reads_an_argument

MODEL = 7  # the model object's id


def switch(training, backwards, steps, seq, line=10):
    return ModeSwitch("", "Net", training, backwards, steps, seq, Site("/src/train.py", line), module_id=MODEL)


def left_in_eval_trace(switches, total_steps, total_backwards) -> Trace:
    trace = Trace(argv=["train.py"], meta={"optimizer_steps": total_steps, "backward_calls": total_backwards})
    trace.mode_switches = switches
    trace.module_calls[1] = ModuleCall(1, "Net", "", module=MODEL, training=False)
    trace.module_calls[2] = ModuleCall(2, "Dropout", "drop", parent=1, module=8, training=False)
    trace.nodes[5] = Node(5, "AddmmBackward0", "linear", None, seq=100, backwards_before=5, module_call=1)
    return trace


def test_training_left_in_eval_mode_after_an_evaluation():
    evaluation = switch(False, 3, 3, 50, line=30)
    trace = left_in_eval_trace([switch(True, 0, 0, 1), evaluation], total_steps=9, total_backwards=9)
    found = modes.left_in_eval(trace)
    assert (found.steps_in_train, found.steps_after, found.backwards_after) == (3, 6, 6)
    del trace.module_calls[2]  # nothing inside computes differently in eval mode: the mode changes nothing
    assert modes.left_in_eval(trace) is None


def test_a_planned_switch_of_the_training_forward_is_no_evaluation():
    # `model.train(step < 4)`: the same forward line runs in eval mode from then on, on purpose
    trace = left_in_eval_trace([switch(True, 0, 0, 1), switch(False, 4, 4, 50)], total_steps=9, total_backwards=9)
    assert modes.left_in_eval(trace) is None


def test_a_model_toggled_around_one_step_is_not_left_in_eval_mode():
    # a GAN's discriminator in eval mode while the generator takes one step, then back to train
    switches = [switch(True, 0, 0, 1), switch(False, 1, 1, 20), switch(True, 2, 2, 30), switch(False, 3, 3, 40)]
    trace = left_in_eval_trace(switches, total_steps=4, total_backwards=4)
    assert modes.left_in_eval(trace) is None


def test_a_final_evaluation_is_not_training_in_eval_mode():
    trace = left_in_eval_trace([switch(True, 0, 0, 1), switch(False, 9, 9, 50)], total_steps=9, total_backwards=9)
    assert modes.left_in_eval(trace) is None


def test_one_helper_called_from_training_and_evaluation_is_two_forwards():
    helper = Site("/src/train.py", 20, "compute_loss")
    trained = Site(helper.path, helper.line, helper.function, (Site("/src/train.py", 37, "<module>"),))
    evaluated = Site(helper.path, helper.line, helper.function,
                     (Site("/src/train.py", 40, "<module>"), Site("/src/train.py", 26, "evaluate")))
    training = ModeSwitch("", "Net", True, 0, 0, 1, trained, module_id=MODEL)
    evaluation = ModeSwitch("", "Net", False, 3, 3, 50, evaluated, module_id=MODEL)
    trace = left_in_eval_trace([training, evaluation], total_steps=9, total_backwards=9)
    assert modes.left_in_eval(trace) is not None
    assert modes.parting_frame(evaluated, trained).line == 26
    assert modes.parting_frame(trained, evaluated).line == 37


def eval_from_start_trace(changed) -> Trace:
    trace = left_in_eval_trace([switch(False, 0, 0, 1)], total_steps=6, total_backwards=6)
    trace.nodes[6] = Node(6, "AccumulateGrad", "linear", None, seq=101, backwards_before=0, module_call=1,
                          leaf_ids=[30])
    trace.leaves[30] = Leaf(30, "fc.weight", "parameter", (4, 4), "float32",
                            Site("/src/model.py", 11, "__init__", (Site("/src/train.py", 20, "load"),)))
    trace.param_steps = [ParamStep("SGD", 1, None, params=2, changed=1, changed_leaves=changed)]
    return trace


def test_a_model_that_never_ran_in_train_mode_and_was_stepped():
    trace = eval_from_start_trace(changed=[30])
    found = modes.eval_from_start(trace)
    assert (found.steps_after, found.backwards_after) == (6, 6)
    # where the whole model was made: out of the constructors that built its layers
    assert modes.model_built_at(trace, found.evaluated).line == 20


def test_a_teacher_in_eval_mode_that_no_step_changes_is_not_trained_in_eval_mode():
    assert modes.eval_from_start(eval_from_start_trace(changed=[])) is None


def test_modes_set_model_by_model_or_part_by_part_are_not_a_forgotten_train_call():
    # a student in train mode beside the eval-mode model: `.eval()` taken for a freeze (the ledger's)
    trace = eval_from_start_trace(changed=[30])
    trace.mode_switches.append(ModeSwitch("", "Student", True, 0, 0, 2, Site("/src/train.py", 40), module_id=99))
    assert modes.eval_from_start(trace) is None
    # the head put back in train mode inside the eval-mode model
    trace = eval_from_start_trace(changed=[30])
    trace.module_calls[3] = ModuleCall(3, "Linear", "head", parent=1, module=9, training=True)
    trace.nodes[7] = Node(7, "AddmmBackward0", "linear", None, seq=102, backwards_before=0, module_call=3, leaf_ids=[31])
    assert modes.eval_from_start(trace) is None
    # (a loss module made inside forward, in train mode by default, holds no parameter: says nothing)
    trace.nodes[7].leaf_ids = []
    assert modes.eval_from_start(trace) is not None


def test_train_call_before_the_loop_that_holds_the_evaluation(tmp_path):
    path = tmp_path / "train.py"
    path.write_text("def train(net):\n    net.train()\n    for epoch in range(3):\n        step(net)\n"
                    "        evaluate(net)\n\n\ndef evaluate(net):\n    net.eval()\n    net(x)\n")
    setter = modes.mode_set_in(Site(str(path), 4, "train"), training=True)
    assert [s.line for s in setter] == [2]
    assert modes.outside_loop_around(setter[0], [Site(str(path), 5, "train")]) == (3, 5)
    assert [s.line for s in modes.mode_set_in(Site(str(path), 10, "evaluate"), training=False)] == [9]


def test_mode_calls_are_method_calls_only(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("model.train()\nnet = train()\nmodel.train(False)\nmodel.eval()\nmodel.train(mode)\n")
    assert mode_calls(str(path), True) == [1]
    assert mode_calls(str(path), False) == [3, 4]


def test_frozen_norm_in_train_mode_with_and_without_the_programs_own_eval(tmp_path):
    path = tmp_path / "model.py"
    path.write_text("def freeze(self):\n    for p in self.parameters():\n        p.requires_grad = False\n"
                    "    for m in self.modules():\n        m.eval()\n")
    trace = Trace(argv=["train.py"], meta={"optimizer_steps": 4})
    trace.frozen_norms = [MODEL]
    trace.module_calls[1] = ModuleCall(1, "BatchNorm1d", "bn", module=MODEL, training=True)
    trace.freezes = [Freeze(1, Site(str(path), 3, "freeze"), leaf=1)]
    found = modes.frozen_norms_in_train_mode(trace)
    assert [s.line for s in found.eval_set] == [5]
    other = tmp_path / "tutorial.py"
    other.write_text("def freeze(self):\n    for p in self.parameters():\n        p.requires_grad = False\n")
    trace.freezes = [Freeze(1, Site(str(other), 3, "freeze"), leaf=1)]
    found = modes.frozen_norms_in_train_mode(trace)  # frozen by requires_grad only: no intent to name
    assert found.eval_set == [] and found.freeze.line == 3


def test_step_that_never_ran_marks_its_condition_and_the_option_it_reads(tmp_path):
    path = tmp_path / "train.py"
    path.write_text("import argparse\np = argparse.ArgumentParser()\np.add_argument('--accum-steps', default=8)\n"
                    "args = p.parse_args()\nfor i in range(4):\n    loss.backward()\n"
                    "    if (i + 1) % args.accum_steps == 0:\n        opt.step()\n")
    trace = Trace(argv=["train.py"], meta={"backward_calls": 4})
    trace.leaves[1] = Leaf(1, "w", "parameter", (2,), "float32", None)
    trace.nodes[2] = Node(2, "MmBackward0", "mm", None, seq=1, backwards_before=0, leaf_ids=[1], ran_by=0)
    trace.backward_calls.append(BackwardCall(0, "Tensor.backward", Site(str(path), 6), 2, False, False, roots=[2]))
    [finding] = ledger_rules.step_never_ran(trace)
    assert [(loc.line, loc.role) for loc in finding.locations] == [(7, "fix"), (6, "backward"), (8, "step"),
                                                                   (3, "setting")]
    trace.backward_calls.append(BackwardCall(1, "Tensor.backward", Site(str(path), 6), 3, False, False, roots=[2],
                                             error=ErrorInfo("RuntimeError", "Trying to backward through the graph")))
    assert ledger_rules.step_never_ran(trace) == []  # (the run died before the condition could come true)
    trace.backward_calls.pop()
    trace.param_steps = []
    trace.first_steps = [object()]  # a step ran: nothing to say
    assert ledger_rules.step_never_ran(trace) == []


def test_options_read_by_a_condition(tmp_path):
    path = tmp_path / "train.py"
    path.write_text("cfg = {'warmup': 3}\nif step > cfg['warmup'] and args.ok:\n    pass\nargs = parse()\n")
    assert set(names_read(str(path), 2)) == {"step", "warmup", "ok", "cfg", "args"}
    assert option_settings(str(path), "warmup") == [(1, "3")]
    # `args = parse()` is not a setting: only literal values are
    assert [(site.line, name) for site, name, _ in options_read(Site(str(path), 2), [str(path)])] == [(1, "warmup")]


def test_reads_an_argument(tmp_path):
    path = tmp_path / "meter.py"
    path.write_text("class Meter:\n    def add(self, value, n=1):\n        self.total += value * n\n"
                    "        self.count += 1\n")
    assert reads_an_argument(str(path), 3)
    assert not reads_an_argument(str(path), 4)


def test_a_norm_layer_twin_is_the_same_layer_of_the_model_a_copy_was_made_from():
    trace = Trace(argv=["train.py"])
    trace.module_calls[1] = ModuleCall(1, "BatchNorm1d", "module.1", module=50, training=False)
    trace.module_calls[2] = ModuleCall(2, "BatchNorm1d", "1", module=60, training=True)
    trace.module_calls[3] = ModuleCall(3, "BatchNorm1d", "backbone.bn1", module=70, training=False)
    assert modes.trained_twin(trace, trace.module_calls[1]).id == 2  # the EMA copy's layer and the model's
    assert modes.trained_twin(trace, trace.module_calls[3]) is None  # a frozen backbone nothing fed


def test_two_stages_of_one_network_are_no_twins():
    trace = Trace(argv=["train.py"])
    trace.module_calls[1] = ModuleCall(1, "BatchNorm2d", "layer3.0.bn1", module=50, training=False)
    trace.module_calls[2] = ModuleCall(2, "BatchNorm2d", "layer4.0.bn1", module=60, training=True)
    trace.module_calls[3] = ModuleCall(3, "BatchNorm1d", "q_net_target.q_net.0", module=70, training=False)
    trace.module_calls[4] = ModuleCall(4, "BatchNorm1d", "q_net.q_net.0", module=80, training=True)
    assert modes.trained_twin(trace, trace.module_calls[1]) is None
    assert modes.trained_twin(trace, trace.module_calls[3]).id == 4  # (two copies side by side)


def test_an_eval_undone_by_a_train_of_the_whole_before_it_mattered():
    trace = Trace(argv=["train.py"], meta={"backward_calls": 2, "optimizer_steps": 2})
    trace.mode_sets = [
        ModeSet(1, 11, "backbone.1", "BatchNorm2d", False, 0, Site("model.py", 20)),
        ModeSet(2, 10, "", "Segmenter", True, 0, Site("train.py", 29), undid=[(0, False)]),
    ]
    assert modes.evals_undone(trace) is None  # (no forward of it in train mode seen after: nothing known)
    trace.module_calls = {5: ModuleCall(5, "BatchNorm2d", "backbone.1", module=11, training=True)}
    trace.nodes = {9: Node(9, "NativeBatchNormBackward0", "batch_norm", Site("model.py", 30), seq=3,
                           backwards_before=0, module_call=5)}
    found = modes.evals_undone(trace)
    assert found is not None and found.undone_by.site.line == 29 and found.mode_dependent_only
    assert [s.site.line for s in found.evals] == [20]
    trace.mode_sets[1].undid = [(0, True)]  # it ran forward in eval mode first: the eval mattered
    assert modes.evals_undone(trace) is None
