"""From a configuration entry to the statement that reads it: source files only, no torch."""

from __future__ import annotations

import textwrap

from gradscope.analyses.settings import branch_options, guard_options, registry_settings, setting_readers
from gradscope.trace.call_sites import caller_in_source, parameter_default
from gradscope.trace.locations import Site
from gradscope.trace.registry_search import registry_keys, tables_naming
from gradscope.trace.setting_search import key_reads, keys_around
from gradscope.trace.source_search import guard_conditions

CONFIG = '''CONFIG = {
    "lr": 1e-3,
    "checkpointing_kwargs": {"use_reentrant": True},
    "nested": {
        "depth": 2,
    },
}
'''

TRAIN = '''from config import CONFIG


def build(model, cfg=CONFIG):
    if cfg.get("lr") > 0:
        model.enable(kwargs=cfg["checkpointing_kwargs"])
    depth = cfg["nested"]["depth"]
    return model
'''


def test_keys_around_a_line_innermost_first(tmp_path):
    path = tmp_path / "config.py"
    path.write_text(CONFIG)
    assert keys_around(str(path), 3) == ["use_reentrant", "checkpointing_kwargs"]
    assert keys_around(str(path), 5) == ["depth", "nested"]
    assert keys_around(str(path), 1) == []


def test_key_reads_are_statements_and_compound_headers(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    assert key_reads(str(path), "checkpointing_kwargs") == [6]
    assert key_reads(str(path), "lr") == [5]  # the `if` header, not its body
    assert key_reads(str(path), "use_reentrant") == []


def test_a_setting_is_read_where_its_entry_or_the_entry_around_it_is(tmp_path):
    config, train = tmp_path / "config.py", tmp_path / "train.py"
    config.write_text(CONFIG)
    train.write_text(TRAIN)
    found = setting_readers(Site(str(config), 3), [str(config), str(train)])
    assert [(site.line, key) for site, key in found] == [(6, "checkpointing_kwargs")]
    assert setting_readers(Site(str(config), 2), [str(config), str(train)])[0][0].line == 5


def test_entries_side_by_side_on_one_line_need_the_value_set(tmp_path):
    path = tmp_path / "config.py"
    path.write_text('CONFIG = {"activation": "relu", "channels": 8}\n')
    assert keys_around(str(path), 1) == []  # which of the two? nothing is said
    assert keys_around(str(path), 1, value_hint="'relu'") == ["activation"]


def test_the_only_call_of_a_helper_is_its_caller(tmp_path):
    helper, train = tmp_path / "monitor.py", tmp_path / "train.py"
    helper.write_text("class Monitor:\n    def __init__(self, model):\n        model.register_hook(print)\n\n"
                      "    def forward(self):\n        pass\n")
    train.write_text("from monitor import Monitor\nmonitor = Monitor(model)\nmonitor.forward()\n")
    files = [str(helper), str(train)]
    assert caller_in_source(str(helper), 3, files) == (str(train), 2, "Monitor")
    assert caller_in_source(str(helper), 6, files) is None  # `forward` is called by the framework
    twice = tmp_path / "twice.py"  # (files are parsed once: another file for another program)
    twice.write_text("from monitor import Monitor\na = Monitor(model)\nb = Monitor(model)\n")
    assert caller_in_source(str(helper), 3, [str(helper), str(twice)]) is None  # which of the two ran?


def test_the_if_around_a_fix_site_names_the_option_it_reads(tmp_path):
    train, model = tmp_path / "train.py", tmp_path / "model.py"
    train.write_text('import argparse\nparser = argparse.ArgumentParser()\n'
                     'parser.add_argument("--grad-checkpointing", type=int, default=1)\n'
                     'args = parser.parse_args()\n')
    model.write_text("def run(block, h, args):\n    if args.grad_checkpointing:\n"
                     "        h = checkpoint(block, h)\n    return h\n")
    found = branch_options(Site(str(model), 3, "run"), [str(train), str(model)])
    assert [(site.line, name, value) for site, name, value in found] == [(3, "grad_checkpointing", "1")]


def test_a_parameter_default_of_the_function_around_a_line(tmp_path):
    path = tmp_path / "trainer.py"
    path.write_text("class T:\n    def step(self, x, zero_grad: bool = False, *, scale=2):\n"
                    "        if zero_grad:\n            pass\n")
    assert parameter_default(str(path), 3, "zero_grad") == (2, "False")
    assert parameter_default(str(path), 3, "scale") == (2, "2")
    assert parameter_default(str(path), 3, "x") is None


def test_name_patterns_that_match_no_parameter():
    from gradscope.analyses.settings import matches_no_parameter, name_patterns
    from gradscope.trace.model import Leaf, Trace

    assert name_patterns('("classifier",)') == ("classifier",) and name_patterns("'fc'") == ("fc",)
    assert name_patterns("3") is None and name_patterns("[1, 'a']") is None and name_patterns("()") is None
    trace = Trace(argv=["train.py"])
    trace.leaves = {i: Leaf(i, name, "parameter", (1,), "float32", None)
                    for i, name in enumerate(["conv1.weight", "layer1.0.bn1.weight", "fc.weight"])}
    assert matches_no_parameter(trace, ("classifier",)) == ["conv1", "fc", "layer1"]
    assert matches_no_parameter(trace, ("fc",)) is None and matches_no_parameter(trace, ("bn1",)) is None
    assert matches_no_parameter(Trace(argv=["t.py"]), ("fc",)) is None  # (no names known: nothing to say)


def test_passed_in_from(tmp_path):
    from gradscope.trace.call_sites import passed_in_from

    trainer = tmp_path / "trainer.py"
    trainer.write_text("class Trainer:\n"
                       "    def __init__(self, opt, model, optimizer=None):\n"
                       "        self.optimizer = optimizer\n"
                       "        self.model = model\n")
    callers = {"twice": "def main(model):\n"
                        "    optimizer = make(model.parameters())\n"
                        "    trainer = Trainer({}, model, optimizer)\n"
                        "    other = Trainer({}, model, optimizer=make(model))\n",
               "name": "def main(model):\n"
                       "    optimizer = make(model.parameters())\n"
                       "    trainer = Trainer({}, model, optimizer)\n",
               "call": "def main(model):\n"
                       "    trainer = Trainer({}, model, optimizer=make(model))\n"}
    found = {}
    for name, text in callers.items():  # (one folder each: a file is read once per path)
        (tmp_path / name).mkdir()
        train = tmp_path / name / "train.py"
        train.write_text(text)
        found[name] = passed_in_from(str(trainer), 3, [str(trainer), str(train)])
    assert found["twice"] is None  # (two calls of Trainer: which one ran?)
    assert found["name"] == (str(tmp_path / "name" / "train.py"), 2)
    assert found["call"] == (str(tmp_path / "call" / "train.py"), 2)


def test_an_early_exit_before_a_line_names_the_option_it_reads(tmp_path):
    config, model = tmp_path / "config.py", tmp_path / "model.py"
    config.write_text('CONFIG = {"head_type": "classification"}\n')
    model.write_text("class M:\n"
                     "    def groups(self, lr):\n"
                     '        if self.config["head_type"] == "pretraining":\n'
                     "            return [self.parameters()]\n"
                     "        for part in self.parts:\n"
                     "            if part.frozen:\n"
                     "                continue\n"
                     "            if part.big:\n"
                     "                lr = lr / 2\n"
                     "            use(part, lr)\n"
                     "        return []\n")
    assert guard_conditions(str(model), 10) == [6, 3]  # (the `if part.big:` does not leave)
    assert guard_conditions(str(model), 3) == []
    found = guard_options(Site(str(model), 11, "groups"), [str(config), str(model)])
    assert [(site.line, name, value, guard) for site, name, value, guard in found] == \
        [(1, "head_type", "'classification'", 3)]


def test_a_registry_key_for_the_class_that_ran(tmp_path):
    tables, layers, config = tmp_path / "tables.py", tmp_path / "layers.py", tmp_path / "config.py"
    tables.write_text("import torch.nn as nn\n"
                      'ACTS = {"relu": nn.ReLU, "gelu": lambda: nn.GELU()}\n'
                      'IMPLS = {"fused": FusedFn.apply, "ref": reference}\n')
    layers.write_text("from tables import ACTS, IMPLS\n"
                      "def build_act(cfg):\n"
                      '    return ACTS[cfg.pop("type")]()\n'
                      "class Block:\n"
                      "    def __init__(self, act, impl):\n"
                      "        self.act = build_act(act)\n"
                      "        self.fn = IMPLS.get(impl)\n"
                      "    def forward(self, x):\n"
                      "        return self.fn(self.act(x))\n")
    config.write_text('MODEL = {"act": dict(type="gelu"), "impl": "fused"}\n'
                      'def build(impl="fused"):\n    pass\n')
    files = (str(tables), str(layers), str(config))
    assert registry_keys(str(layers), 9, "GELU", files) == [("ACTS", "gelu")]
    assert registry_keys(str(layers), 9, "FusedFn", files) == [("IMPLS", "fused")]
    assert registry_keys(str(layers), 9, "Linear", files) == []
    # (the setting is the config's string; a parameter default is none)
    found = registry_settings(Site(str(layers), 9), {"FusedFn", "Linear"}, list(files))
    assert [(site.path, site.line, key, cls, table) for site, key, cls, table in found] == \
        [(str(config), 1, "fused", "FusedFn", "IMPLS")]


def test_classes_run_at_a_line():
    from gradscope.trace.model import ModuleCall, Node, Trace
    from gradscope.trace.queries import classes_run_at

    trace = Trace(["m.py"])
    trace.module_calls[1] = ModuleCall(1, "ReLU", "act", site=Site("m.py", 9))
    trace.nodes[1] = Node(1, "ReluBackward0", "relu", Site("m.py", 9), seq=1, backwards_before=0, module_call=1)
    trace.nodes[2] = Node(2, "FusedFnBackward", "apply", Site("m.py", 12), seq=2, backwards_before=0)
    assert classes_run_at(trace) == {("m.py", 9): {"ReLU"}, ("m.py", 12): {"FusedFn"}}


def test_the_key_of_the_class_a_line_is_a_method_of(tmp_path):
    attacks, train = tmp_path / "attacks.py", tmp_path / "train.py"
    attacks.write_text("class FGSM:\n    def run(self, x):\n        return x\n"
                       "class DeepFool:\n    def run(self, x):\n        return x.clamp(0, 1)\n"
                       'ATTACKS = {"fgsm": FGSM, "deepfool": DeepFool}\n'
                       'UNUSED = {"a": DeepFool, "b": FGSM}\n')
    train.write_text("import argparse\nfrom attacks import ATTACKS\np = argparse.ArgumentParser()\n"
                     'p.add_argument("--attack", default="deepfool", choices=sorted(ATTACKS))\n'
                     "attack = ATTACKS[p.parse_args().attack]()\n")
    files = (str(attacks), str(train))
    assert tables_naming("DeepFool", files) == [("ATTACKS", "deepfool")]  # (UNUSED is looked up nowhere)
    found = registry_settings(Site(str(attacks), 6), set(), list(files))
    assert [(site.path, site.line, key, cls) for site, key, cls, _ in found] == [(str(train), 4, "deepfool", "DeepFool")]


def test_an_option_a_branch_reads_through_values_computed_from_it(tmp_path):
    config, model = tmp_path / "config.py", tmp_path / "model.py"
    config.write_text('CONFIG = {"targets": ["load", "price"], "hidden": 16}\n')
    model.write_text("class M:\n"
                     "    def __init__(self, config):\n"
                     '        self.target_names = config["targets"]\n'
                     "        self.n_outputs = len(self.target_names)\n"
                     "    def forward(self, x):\n"
                     "        if self.n_outputs > 1:\n"
                     "            x = x.detach()\n"
                     "        return x\n")
    found = branch_options(Site(str(model), 7, "forward"), [str(config), str(model)])
    assert [(site.line, name, value) for site, name, value in found] == [(1, "targets", "['load', 'price']")]


def test_the_value_a_moving_op_holds_was_computed_up_its_inputs():
    from gradscope.analyses.provenance import computed_at
    from gradscope.trace.model import Node, Trace

    trace = Trace(["m.py"])
    trace.nodes[1] = Node(1, "AddmmBackward0", "linear", Site("m.py", 5), seq=1, backwards_before=0)
    trace.nodes[2] = Node(2, "StackBackward0", "stack", Site("buffer.py", 9), seq=2, backwards_before=0, next_ids=[1])
    trace.nodes[3] = Node(3, "ViewBackward0", "flatten", Site("m.py", 20), seq=3, backwards_before=0, next_ids=[2])
    assert computed_at(trace, trace.nodes[3]).id == 1
    assert computed_at(trace, trace.nodes[1]) is None  # (it computed its value itself)


def test_a_counter_is_no_option(tmp_path):
    train = tmp_path / "train.py"
    train.write_text('import argparse\np = argparse.ArgumentParser()\np.add_argument("--val_step", type=int, default=5)\n'
                     "args = p.parse_args()\niteration = 0\nfor batch in range(9):\n    iteration += 1\n"
                     "    if iteration % args.val_step == 0:\n        evaluate()\n")
    found = branch_options(Site(str(train), 9, "<module>"), [str(train)])
    assert [(site.line, name) for site, name, _ in found] == [(3, "val_step")]


def test_state_flipped_by_a_method_is_no_option(tmp_path):
    from gradscope.analyses.settings import options_read
    from gradscope.trace.locations import Site
    path = tmp_path / "modifiers.py"
    path.write_text(textwrap.dedent("""\
        class Modifier:
            def __init__(self):
                self.applied = False
                self.start_step = 3

            def update(self, step):
                if self.applied or step < self.start_step:
                    return
                self.applied = True
        """))
    found = options_read(Site(str(path), 7), [str(path)])
    assert [name for _, name, _ in found] == ["start_step"]
