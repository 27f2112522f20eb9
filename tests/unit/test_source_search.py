"""source_search reads facts from source files by parsing them (no torch, nothing run)."""

from __future__ import annotations

import textwrap

from gradscope.trace import source_search as ss

from gradscope.trace.source_search import (
    attribute_set_to,
    def_line,
    enclosing_block,
    keyword_calls,
    keyword_uses,
    mode_regions,
    name_filters,
    parameter_group_lists,
    return_lines,
    selects_by_name,
    sibling_method,
    split_base_read_later,
)

SOURCE = textwrap.dedent("""\
    import torch


    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            if grad is None:
                return None
            return grad * 2


    class NoReturn(torch.autograd.Function):
        @staticmethod
        def backward(ctx, grad):
            def helper():
                return 1
            g = grad * 2


    @torch.inference_mode()
    def extract(model, x):
        return model(x)


    def loop(model, x):
        with torch.no_grad():
            y = model(x)
        return y
    """)


def test_functions_are_found_by_their_first_line_past_decorators(tmp_path):
    path = tmp_path / "fn.py"
    path.write_text(SOURCE)
    assert def_line(str(path), 9) == 10  # `@staticmethod` -> `def backward`
    assert def_line(str(path), 10) == 10
    assert def_line(str(path), 3) == 3  # not a function: as given
    assert return_lines(str(path), 9) == [12, 13]
    assert return_lines(str(path), 17) == [21]  # no return of its own (a nested one does not count): its last line
    assert sibling_method(str(path), 9, "forward") == 6
    assert sibling_method(str(path), 17, "forward") is None


def test_enclosing_block_finds_with_statements_and_decorators(tmp_path):
    path = tmp_path / "fn.py"
    path.write_text(SOURCE)
    assert enclosing_block(str(path), 26) == 24
    assert enclosing_block(str(path), 31) == 30
    assert enclosing_block(str(path), 32) is None
    assert enclosing_block(str(tmp_path / "absent.py"), 1) is None


def test_a_custom_function_node_is_placed_at_its_apply_line():
    """Function.apply does not pass through the mode; its node is placed where it was applied
    (recorder/functions.py), also when the apply is inside a helper of a module."""
    import torch
    import torch.nn as nn

    from tests.harness import record

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    def double(x):
        return Double.apply(x)  # the apply line

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            return double(self.fc(x)).sum()

    def program():
        Net()(torch.randn(2, 3)).backward()

    run = record(program)
    (node,) = [n for n in run.trace.nodes.values() if n.name == "DoubleBackward"]
    assert node.site.line == double.__code__.co_firstlineno + 1 and node.site.function == "double"
    assert node.site.callers[-1].function == "forward"  # reached from Net.forward


def test_class_methods_tells_static_from_instance_methods(tmp_path):
    from gradscope.trace.source_search import class_methods

    path = tmp_path / "fn.py"
    path.write_text(SOURCE + textwrap.dedent("""\


        class Legacy(torch.autograd.Function):
            def forward(self, x):
                return x
        """))
    assert class_methods(str(path), "Scale", ("forward", "backward")) == {"forward": (6, True), "backward": (10, True)}
    assert class_methods(str(path), "Legacy", ("forward", "backward")) == {"forward": (36, False)}


def test_returned_inplace_finds_writes_into_what_forward_returns(tmp_path):
    from gradscope.trace.source_search import returned_inplace

    path = tmp_path / "fn.py"
    path.write_text(textwrap.dedent("""\
        def forward(ctx, cos, m):
            other = cos * 2
            other.mul_(3)
            cos.sub_(m)
            cos += 1
            cos[0] = 0
            return cos
        """))
    assert returned_inplace(str(path), 1) == [4, 5, 6]


def test_sibling_writes_and_writes_to_arguments(tmp_path):
    from gradscope.trace.source_search import sibling_writes, writes_an_argument

    path = tmp_path / "edit.py"
    path.write_text(textwrap.dedent("""\
        def edit(model, pos, a, b):
            w = model.weight
            w[:, pos] -= a
            w[:, pos] += b
            model.bias += a


        def normalize(batch, mean):
            batch -= mean
            out = batch * 2
            out.mul_(3)
            batch.div_(2)
            return out
        """))
    assert sibling_writes(str(path), 3) == [4]
    assert sibling_writes(str(path), 5) == []
    assert [writes_an_argument(str(path), line) for line in (9, 10, 11, 12)] == [True, False, False, True]


def test_kept_on_objects_finds_lists_that_outlive_the_call(tmp_path):
    from gradscope.trace.source_search import kept_on_objects

    path = tmp_path / "rl.py"
    path.write_text(textwrap.dedent("""\
        def update(policy, log_probs):
            local = []
            for lp in log_probs:
                local.append(lp)
                policy.memory.append(lp)
            return local
        """))
    assert kept_on_objects(str(path), 3) == [(5, "policy.memory")]


def test_keyword_settings_and_enclosing_class(tmp_path):
    from gradscope.trace.source_search import enclosing_class, keyword_settings

    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent("""\
        class Loss:
            def forward(self, x):
                return x
        a = Loss(threshold=0.5, eps=None)
        b = losses.Loss(threshold=None, smooth=False)
        c = Loss(mode="binary")
        """))
    assert enclosing_class(str(path), 3) == "Loss" and enclosing_class(str(path), 4) is None
    assert keyword_settings(str(path), "Loss", {"threshold", "eps", "smooth"}) == [(4, "threshold=0.5")]
    assert keyword_settings(str(path), "Loss", {"mode"}) == [(6, "mode='binary'")]


def test_alias_assignment_follows_the_last_binding(tmp_path):
    from gradscope.trace.source_search import alias_assignment
    path = tmp_path / "block.py"
    path.write_text(
        "def forward(x, lin):\n"
        "    h = x\n"
        "    h = torch.sigmoid(lin(h))\n"
        "    h += 1\n"
        "    return h\n"
        "\n"
        "\n"
        "def forward2(x):\n"
        "    out = x.view(-1)\n"
        "    out[0] = 1\n"
        "    out.mul_(2)\n"
        "    return out\n")
    assert alias_assignment(str(path), 4) is None  # h holds sigmoid's output by then
    assert alias_assignment(str(path), 10) == 9
    assert alias_assignment(str(path), 11) == 9  # `out[0] = 1` writes; it does not rebind


def test_input_guard_judges_the_ops_own_input_and_its_bounds(tmp_path):
    from gradscope.trace.source_search import input_guard
    path = tmp_path / "angles.py"
    path.write_text(
        "def angle(a, b, lin):\n"
        "    cos = torch.clamp(a @ b, -1.0, 1.0)\n"
        "    safe = torch.clamp(a @ b, -1 + 1e-6, 1 - 1e-6)\n"
        "    h = lin(a)\n"
        "    edge = torch.acos(cos) + h\n"
        "    inside = torch.acos(safe)\n"
        "    d = (a - b).abs()\n"
        "    r = d.clamp_min(0.0)\n"
        "    dist = r.sqrt() + torch.acos(safe)\n"
        "    eps = cfg.eps\n"
        "    z = d.clamp_min(eps)\n"
        "    w = torch.sqrt(z)\n")
    assert input_guard(str(path), 5, "acos") == (2, "clamp")  # ±1 lets acos's edge through
    assert input_guard(str(path), 6, "acos") is None  # strictly inside: it guards
    assert input_guard(str(path), 5, "linear") is None  # not this line's op: say nothing
    assert input_guard(str(path), 9, "sqrt") == (8, "clamp_min")  # the op's own input, not acos's
    assert input_guard(str(path), 12, "sqrt") is None  # a bound that is not a number: not judged
    assert input_guard(str(path), 5, None) is None


def test_option_settings_and_imports(tmp_path):
    from gradscope.trace.source_search import imported_modules, option_settings
    config = tmp_path / "config.py"
    config.write_text('CONFIG = {\n    "ckpt": {"use_reentrant": True},\n}\nuse_reentrant = False\n')
    train = tmp_path / "train.py"
    train.write_text("from config import CONFIG\nimport utils.helpers as h\n"
                     "def f(use_reentrant=True):\n    checkpoint(fn, x, use_reentrant=False)\n")
    assert option_settings(str(config), "use_reentrant") == [(2, "True"), (4, "False")]
    assert option_settings(str(train), "use_reentrant") == [(4, "False")]  # the parameter default is no setting
    assert {"config", "CONFIG", "utils.helpers", "helpers"} <= imported_modules(str(train))


def test_attribute_cache_check_finds_the_hit_not_the_miss(tmp_path):
    from gradscope.trace.source_search import attribute_cache_check
    path = tmp_path / "layers.py"
    path.write_text(
        "class A:\n"
        "    def kernel(self, n):\n"
        "        if self._n == n:\n"
        "            return self._kernel\n"
        "        k = make(n)\n"
        "        self._kernel = k\n"
        "        return k\n"
        "\n"
        "    def states(self):\n"
        "        if self._states is None:\n"
        "            self._states = self.gnn(self.adj)\n"
        "        return self._states\n")
    assert attribute_cache_check(str(path), 6) == 3  # the hit that returns the kept value
    assert attribute_cache_check(str(path), 11) is None  # a memo filled once: no separate hit


def test_ineffective_detaches_are_loop_variables_rebound_and_never_read(tmp_path):
    from gradscope.trace.source_search import ineffective_detaches
    path = tmp_path / "state.py"
    path.write_text(
        "def detach(self):\n"
        "    for h in self.hidden:\n"
        "        h = h.detach()\n"
        "\n"
        "def detached(states):\n"
        "    out = []\n"
        "    for h in states:\n"
        "        h = h.detach()\n"
        "        out.append(h)\n"
        "    return out\n")
    assert ineffective_detaches(str(path)) == [3]  # the second loop uses what it detached


def test_binding_line_and_missing_gradient_handled(tmp_path):
    from gradscope.trace.source_search import binding_line, missing_gradient_handled
    path = tmp_path / "opt.py"
    path.write_text(
        "def step(self):\n"
        "    for p in self.params:\n"
        "        if p.grad is None:\n"
        "            p.grad = torch.zeros_like(p)\n"
        "        p.requires_grad = False\n"
        "\n"
        "def good_step(self):\n"
        "    for p in self.params:\n"
        "        if p.grad is None:\n"
        "            continue\n")
    assert binding_line(str(path), 5) == 2
    assert missing_gradient_handled(str(path), 1) == 4
    assert missing_gradient_handled(str(path), 7) is None


def test_parameter_pair_loops_and_takes_arguments(tmp_path):
    from gradscope.trace.source_search import parameter_pair_loops, takes_arguments
    path = tmp_path / "ema.py"
    path.write_text(
        "def update(ema, model):\n"
        "    for e, p in zip(ema.parameters(), model.parameters()):\n"
        "        e.lerp_(p, 0.1)\n"
        "    for e, b in zip(ema.buffers(), model.buffers()):\n"
        "        e.copy_(b)\n"
        "class A:\n"
        "    def freeze(self):\n"
        "        self.x = 1\n")
    assert parameter_pair_loops(str(path)) == [2]
    assert takes_arguments(str(path), 3) and not takes_arguments(str(path), 8)


def test_the_regions_a_file_enters_inference_mode_in(tmp_path):
    path = tmp_path / "vocab.py"
    path.write_text("import torch\n\n@torch.inference_mode()\ndef grow(model):\n    return model\n\n"
                    "def evaluate(model, x):\n    with torch.inference_mode():\n        return model(x)\n")
    assert mode_regions(str(path)) == [(3, 4), (8, None)]


def test_split_base_read_later(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f(x, proj):\n"
                    "    q, k = proj(x).chunk(2)\n"
                    "    q *= 2\n"
                    "    return q + k\n"
                    "def g(h):\n"
                    "    for row in h.unbind(0):\n"
                    "        row.sub_(1)\n"
                    "    return h.sum()\n"
                    "def k(h):\n"
                    "    a, b = torch.chunk(h, 2)\n"
                    "    a.mul_(3)\n"
                    "    return a * b\n")
    assert split_base_read_later(str(path), 2, 3) is False  # (a call's result: nothing can read it again)
    assert split_base_read_later(str(path), 6, 7) is True   # (h is read after: the change was meant for h)
    assert split_base_read_later(str(path), 10, 11) is False  # (torch.chunk(h): h never read again)


def test_split_base_bound_again_before_it_is_read(tmp_path):
    from gradscope.trace.source_search import loop_variable_changed
    path = tmp_path / "m.py"
    path.write_text("def fuse(self, states, w):\n"
                    "    joint = torch.cat(states, -1)\n"
                    "    if self.gated:\n"
                    "        parts = list(torch.split(joint, 4, dim=-1))\n"
                    "        for i, part in enumerate(parts):\n"
                    "            part.mul_(w[..., i:i + 1])\n"
                    "        joint = torch.cat(parts, -1)\n"
                    "    return self.out(joint)\n"
                    "def other(self, h):\n"
                    "    parts = torch.split(h, 2)\n"
                    "    parts[0].mul_(2)\n"
                    "    if self.flag:\n"
                    "        h = torch.cat(parts)\n"
                    "    return h\n")
    assert split_base_read_later(str(path), 4, 6) is False  # (joint is bound again before it is read)
    assert split_base_read_later(str(path), 10, 11) is True  # (bound again only in a branch)
    assert loop_variable_changed(str(path), 6) == ("part", "parts")
    assert loop_variable_changed(str(path), 11) is None


def test_keyword_calls_and_selects_by_name(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def step(opt, model, prefixes):\n"
                    "    opt.zero_grad(set_to_none=False)\n"
                    "    opt.zero_grad()\n"
                    "    for name, p in model.named_parameters():\n"
                    "        p.requires_grad = any(name.startswith(x) for x in prefixes)\n"
                    "    for p in model.parameters():\n"
                    "        p.requires_grad = bool(prefixes)\n")
    assert keyword_calls(str(path), "zero_grad", "set_to_none", False) == [2]
    assert keyword_calls(str(path), "zero_grad", "set_to_none", 0) == []  # (False, not a number)
    assert selects_by_name(str(path), 5) and not selects_by_name(str(path), 7)


def test_parameter_group_lists(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def groups(model):\n"
                    "    one = [{'params': model.a.parameters()}]\n"
                    "    return [\n"
                    "        {'params': model.a.parameters(), 'weight_decay': 0.0},\n"
                    "        {'params': model.b.parameters(), 'lr': 1e-3},\n"
                    "    ]\n")
    assert parameter_group_lists(str(path)) == [5]  # (the last group of a list of two; a list of one is no list of groups)


def test_attribute_set_to(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("for m in model.modules():\n    m.inplace = True\nother.inplace = False\nx.inplace = 1\n")
    assert attribute_set_to(str(path), "inplace", True) == [2]  # (True itself: not False, not 1)


def test_name_filters_in_functions_over_named_parameters(tmp_path):
    path = tmp_path / "opt.py"
    path.write_text("def groups(model):\n"
                    '    kept = [p for n, p in model.named_parameters() if "pooler" not in n]\n'
                    "    for name, p in model.named_parameters():\n"
                    '        if name.startswith("head."):\n'
                    "            p.requires_grad = False\n"
                    "    return kept\n"
                    "def other(batch):\n"
                    '    return [k for k in batch if "mask" in k]\n')
    assert name_filters(str(path)) == [(2, "pooler"), (4, "head.")]


def test_keyword_uses_that_may_build_frozen(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("a = Embedding.from_pretrained(w, freeze=freeze)\n"
                    "b = Embedding.from_pretrained(w, freeze=False)\n"
                    "c = Parameter(t, requires_grad=False)\n"
                    "d = Parameter(t, requires_grad=True)\n")
    assert keyword_uses(str(path), {"freeze": "False", "requires_grad": "True"}) == \
        [(1, "freeze", "freeze"), (3, "requires_grad", "False")]


def test_constructor_calls_name_the_keyword_line_and_any_block(tmp_path):
    from gradscope.trace.source_search import constructor_calls
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent("""\
        head = MLP(32, [64, 16],
                   norm_layer=None, inplace=True, dropout=0.1)
        act = nn.ReLU(inplace=True)
        """))
    assert constructor_calls(str(path), 1, "ReLU") == []
    assert constructor_calls(str(path), 1, None) == [2]  # (the block's own call passes the flag on)
    assert constructor_calls(str(path), 3, "ReLU") == [3]


def test_rebinding_a_tensor_made_here_leaves_it_no_other_name(tmp_path):
    from gradscope.trace.source_search import rebinds_own_tensor
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent("""\
        def encode(self, x):
            nodes = self.bert(x).pooler_output
            nodes = nodes.view(2, 3, -1)
            return nodes

        def scale(x):
            x = x.view(-1)
            out = x[:4]
            return out
        """))
    assert rebinds_own_tensor(str(path), 3)
    assert not rebinds_own_tensor(str(path), 7)  # (x is the caller's tensor too)
    assert not rebinds_own_tensor(str(path), 8)


def test_passthrough_rebind_finds_where_a_kept_value_comes_back(tmp_path):
    from gradscope.trace.source_search import passthrough_rebind
    path = tmp_path / "attention.py"
    path.write_text(textwrap.dedent("""\
        def forward(self, x):
            k = self.wk(x)
            self.cache = self.cache.to(k)
            self.cache[0, :4] = k
            self.other = k
            return self.cache
        """))
    assert passthrough_rebind(str(path), 4) == 3
    assert passthrough_rebind(str(path), 5) is None


def test_a_guard_that_waits_for_a_size_picks_no_path(tmp_path):
    from gradscope.trace.source_search import guard_conditions
    path = tmp_path / "agent.py"
    path.write_text(textwrap.dedent("""\
        def learn(self):
            if len(self.memory) < self.batch_size:
                return None
            if self.mode == "eval":
                return None
            batch = self.memory.sample(self.batch_size)
        """))
    assert guard_conditions(str(path), 6) == [4]


def test_requires_grad_writes_finds_any_value(tmp_path):
    from gradscope.trace.source_search import requires_grad_writes
    path = tmp_path / "modifiers.py"
    path.write_text(textwrap.dedent("""\
        def update(self):
            for name, param in self.targets():
                param.requires_grad = self.trainable
            self.head.requires_grad_(False)
            self.requires_grad = False
        """))
    assert requires_grad_writes(str(path)) == [3, 4, 5]


def test_views_handed_out_of_a_buffer_written_in_place(tmp_path):
    from gradscope.trace.source_search import views_handed_out
    path = tmp_path / "memory.py"
    path.write_text(textwrap.dedent("""\
        class Memory:
            def queue(self, x):
                self.bank[self.p:self.p + 4] = x

            def get(self):
                return self.bank[:self.p], self.labels[:self.p]

            def copy(self):
                return self.bank[:self.p].clone()
        """))
    assert views_handed_out(str(path), 3) == [6]


def test_writes_into_other_tensors_of_one_object(tmp_path):
    from gradscope.trace.source_search import writes_into_same_object
    path = tmp_path / "fuse.py"
    path.write_text(textwrap.dedent("""\
        def fold(conv, bn):
            fused.weight[:] = conv.weight * 2
            fused.bias[:] = bn.bias
            other.bias[:] = 0
        """))
    assert writes_into_same_object(str(path), 2) == [3]


def test_nonfinite_fill_before_a_softmax(tmp_path):
    from gradscope.trace.source_search import nonfinite_fill
    path = tmp_path / "attention.py"
    path.write_text(textwrap.dedent("""\
        def attend(dots, mask, other):
            dots.masked_fill_(mask, -float("-inf"))
            other.masked_fill_(mask, float("-inf"))
            return dots.softmax(dim=-1), other.softmax(dim=-1)
        """))
    assert nonfinite_fill(str(path), 4, "softmax") == (2, "-float('-inf') (+inf)")


def test_a_backward_that_never_reads_its_incoming_gradient(tmp_path):
    path = tmp_path / "ops.py"
    path.write_text("class F:\n"
                    "    @staticmethod\n"
                    "    def backward(ctx, grad_out):\n"
                    "        (x,) = ctx.saved_tensors\n"
                    "        return torch.ones_like(x)\n"
                    "    @staticmethod\n"
                    "    def backward2(ctx, grad_out):\n"
                    "        return grad_out * 2\n"
                    "    def backward3(ctx, *grads):\n"
                    "        return grads[0]\n")
    assert ss.ignores_incoming_gradients(str(path), 2)
    assert not ss.ignores_incoming_gradients(str(path), 6)
    assert not ss.ignores_incoming_gradients(str(path), 9)
