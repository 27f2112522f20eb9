"""Source facts behind this stop's origins: what a branch taken says of its options, where an
optimizer and its parameter list were made, where a custom Function is applied, which argument
a caller passed, views handed out of a no-grad function, modules appended to a list. Pure source
reading: no torch, nothing run."""

from __future__ import annotations

import textwrap

from gradscope.analyses.settings import _agrees
from gradscope.trace.call_sites import argument_made_at
from gradscope.trace.source_search import (
    appended_into,
    assignments,
    branch_implies,
    called_function,
    calls_containing,
    calls_in_function,
    first_argument_name,
    function_applies,
    function_def,
    grad_off_returns,
    unpacked_argument,
)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_a_branch_taken_says_what_its_options_held(tmp_path):
    path = _write(tmp_path, "layer.py", """\
        def forward(self, x, cfg):
            if self.efficient and any(x):
                y = 1
            else:
                y = 2
            if not cfg["fast"] or cfg.mode == "lm":
                y = 3
            else:
                y = 4
            if cfg.mode == "lm":
                y = 5
    """)
    assert branch_implies(path, 2, 3) == {"efficient": True}
    assert branch_implies(path, 2, 5) == {}  # (an `and` that failed: which part failed is unknown)
    assert branch_implies(path, 6, 9) == {"fast": True, "mode": ("!=", "lm")}  # (an `or` that failed: each part did)
    assert branch_implies(path, 10, 11) == {"mode": ("==", "lm")}
    assert _agrees("True", True) and not _agrees("False", True) and _agrees("'lm'", ("==", "lm"))
    assert _agrees("cfg['x']", True)  # (not a literal: nothing to compare)


def test_the_optimizer_and_its_parameter_list_are_found(tmp_path):
    path = _write(tmp_path, "train.py", """\
        def build_optimizer(model, cfg):
            params = [p for p in model.parameters() if p.requires_grad]
            return torch.optim.AdamW(params, lr=cfg["lr"])

        def train(model, cfg, accelerator):
            optimizer = build_optimizer(model, cfg)
            model, optimizer = accelerator.prepare(model, optimizer)
    """)
    assert called_function(path, 6) == "build_optimizer"
    assert function_def(path, "build_optimizer") == 1
    assert first_argument_name(path, 3) == "params"
    assert assignments(path, "params", before=3) == [2]
    assert unpacked_argument(path, 7, "optimizer") == "optimizer"
    assert assignments(path, "optimizer") == [6, 7]  # (a tuple target assigns each of its names)


def test_applies_of_a_custom_function_and_its_saves(tmp_path):
    path = _write(tmp_path, "ckpt.py", """\
        class CheckpointFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, fn, *args):
                ctx.save_for_backward(*args)
                return fn(*args)

        def checkpoint(fn, *args):
            return CheckpointFunction.apply(fn, *args)

        def build(model):
            model.gradient_checkpointing_enable()
    """)
    assert function_applies(path, "CheckpointFunction") == [8]
    assert function_applies(path, "Other") == []
    assert calls_in_function(path, 2, "save_for_backward") == [4]
    assert calls_containing(path, "checkpointing") == [(11, "gradient_checkpointing_enable")]


def test_the_caller_statement_that_bound_an_argument(tmp_path):
    model = _write(tmp_path, "model.py", """\
        class Net:
            def forward(self, x, locations, ratio=0.5):
                x[0] = 1
    """)
    loop = _write(tmp_path, "loop.py", """\
        def run(model, sampler, batch):
            inputs, places = sampler(batch)
            target = inputs.clone()
            out = model(inputs, places, 0.3)
    """)
    assert argument_made_at(model, 3, "x", loop, 4) == 2
    assert argument_made_at(model, 3, "absent", loop, 4) is None


def test_views_handed_out_of_a_no_grad_function(tmp_path):
    path = _write(tmp_path, "data.py", """\
        class Sampler:
            @torch.no_grad()
            def __call__(self, volume):
                patches = volume[:, :, 0:4]
                return patches, 0

            def plain(self, volume):
                part = volume[:, 0]
                return part
    """)
    assert grad_off_returns(path) == [(2, 5, 4)]


def test_calls_appended_to_the_list_a_container_is_built_from(tmp_path):
    path = _write(tmp_path, "ff.py", """\
        def build(layers, acts):
            modules = []
            for i in range(3):
                modules.append(nn.Linear(layers[i], layers[i + 1]))
                modules.append(ACTS[acts[i]]())
            return nn.Sequential(*modules)
    """)
    assert appended_into(path, 6) == [(4, "nn.Linear"), (5, "ACTS[acts[i]]")]


def test_appended_into_reads_any_argument_shape(tmp_path):
    path = _write(tmp_path, "block.py", """\
        def forward(self, x):
            x = self.conv(x.transpose(1, 2), self.weight, *self.extra)
            return x
    """)
    assert appended_into(path, 2) == []


def test_a_reset_guarded_around_the_whole_loop_is_no_skipped_reset(tmp_path):
    from gradscope.analyses.modes import conditional_resets
    layer = _write(tmp_path, "layer.py", """\
        class Layer:
            def reset_state(self):
                self.weight = None

            def forward(self, x):
                self.weight = self.cell(x, self.weight)
                return x
    """)
    loop = _write(tmp_path, "loop.py", """\
        if __name__ == "__main__":
            for epoch in range(3):
                train(model)
                model.reset_state()
        for epoch in range(3):
            if epoch % 2 == 0:
                model.reset_state()
    """)
    assert [(c.line, r.line) for c, r in conditional_resets(layer, 6, [layer, loop])] == [(6, 7)]


def test_no_parameter_list_is_named_for_a_helper_outside_the_program(tmp_path):
    from gradscope.analyses.ledger import optimizer_made
    from gradscope.trace.locations import Site
    path = _write(tmp_path, "train.py", """\
        from library import build_optimizer

        def train(model, cfg):
            model = Net()
            optimizer = build_optimizer(model, cfg)
            optimizer.step()
    """)
    assert [(site.line, what) for site, what in optimizer_made(Site(path, 6), [path])] == [(5, "built")]


def test_only_slices_of_arguments_under_no_grad_are_views_handed_out(tmp_path):
    path = _write(tmp_path, "infer.py", """\
        @torch.no_grad()
        def predict(self, x):
            out = self.net(x)
            top = out[:, 0]
            return top

        @torch.set_grad_enabled(True)
        def crop(volume):
            part = volume[:, 0]
            return part
    """)
    assert grad_off_returns(path) == []


def test_a_default_taken_because_a_value_was_none_says_so(tmp_path):
    path = _write(tmp_path, "model.py", """\
        def enable(kwargs=None):
            if kwargs is None:
                kwargs = {"use_reentrant": True}
            if kwargs is not None:
                pass
            else:
                kwargs = {}
    """)
    assert branch_implies(path, 2, 3) == {"kwargs": ("==", None)}
    assert branch_implies(path, 4, 7) == {"kwargs": ("==", None)}  # (`is not None` failed)
    assert branch_implies(path, 4, 5) == {}


def test_the_value_a_constructor_is_given_is_traced_to_the_local_that_holds_it(tmp_path):
    from gradscope.trace.source_search import calls_passing, keyword_argument
    path = _write(tmp_path, "losses.py", """\
        def build(kind):
            reduction = "mean"
            reduction = "none"
            if kind == "mse":
                return nn.MSELoss(reduction=reduction)
            return nn.L1Loss(reduction="sum")
    """)
    assert keyword_argument(path, 5, "reduction") == ("reduction", [(3, "'none'"), (2, "'mean'")])
    assert keyword_argument(path, 6, "reduction") == ("'sum'", [])
    assert keyword_argument(path, 4, "reduction") is None
    assert calls_passing(path, "MSELoss", "reduction") == [5]


def test_an_if_whose_body_was_skipped_says_what_its_options_held(tmp_path):
    from gradscope.trace.source_search import branch_skipped_implies
    path = _write(tmp_path, "cell.py", """\
        def forward(self, x):
            if self.h is None or not self.stateful:
                self.h = 0
            if self.fast and x:
                pass
    """)
    assert branch_skipped_implies(path, 2) == {"stateful": True}  # (`is None` failed: nothing said of h)
    assert branch_skipped_implies(path, 4) == {}  # (an `and` that failed: which part is unknown)
    other = _write(tmp_path, "lookup.py", """\
        def lookup(mode):
            if mode == "bilinear":
                return 1
            return 2
    """)
    assert branch_skipped_implies(other, 2) == {"mode": ("!=", "bilinear")}
    assert _agrees("'nearest'", ("!=", "bilinear")) and not _agrees("'bilinear'", ("!=", "bilinear"))


def test_the_element_a_return_gives_back_is_read(tmp_path):
    from gradscope.trace.source_search import returned_element
    path = _write(tmp_path, "fn.py", """\
        def backward(ctx, g):
            grad_x = g.sum(0)
            return grad_x, None
    """)
    assert returned_element(path, 3, 0) == "grad_x"
    assert returned_element(path, 3, 1) == "None"
    assert returned_element(path, 3, 2) is None and returned_element(path, 2, 0) is None


def test_name_sorting_chains_that_end_without_an_else_are_found(tmp_path):
    from gradscope.trace.source_search import name_chains_without_else
    path = _write(tmp_path, "groups.py", """\
        def groups(model):
            decay, no_decay, other = [], [], []
            for name, p in model.named_parameters():
                if name.endswith(".bias"):
                    no_decay.append(p)
                elif "norm" in name:
                    no_decay.append(p)
            for name, p in model.named_parameters():
                if name.endswith(".bias"):
                    no_decay.append(p)
                else:
                    other.append(p)
    """)
    assert name_chains_without_else(path) == [(6, [("endswith", ".bias"), ("in", "norm")])]
