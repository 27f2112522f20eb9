"""How long `gradscope graph` takes on large graphs (a benchmark, not a test).

Builds autograd graphs of about 1k, 10k and 50k nodes (a tiny-op loop, an unrolled RNN cell, a
stack of MLP blocks), records them with gradscope's recorder, and times building the view and
rendering SVG with the renderer found on this machine.

    python benchmarks/graph_sizes.py [--sizes 1000 10000 50000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import torch
import torch.nn as nn

from gradscope.render import graphview
from gradscope.recorder import Recorder
from gradscope.render import diagram
from gradscope.render.dot import to_dot


def tiny_ops(nodes: int):
    w = torch.randn(4, requires_grad=True)
    h = w
    for _ in range(nodes // 2):
        h = h * 1.0001 + 0.0001
    return h.sum()


def unrolled_rnn(nodes: int):
    cell = nn.RNNCell(8, 16)
    h = torch.zeros(1, 16)
    x = torch.randn(nodes // 8, 1, 8)
    for t in range(x.shape[0]):
        h = cell(x[t], h)
    return h.sum()


def mlp_stack(nodes: int):
    blocks = nn.Sequential(*[nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.LayerNorm(16)) for _ in range(nodes // 6)])
    return blocks(torch.randn(2, 16)).sum()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 50000])
    args = parser.parse_args()
    renderer = diagram.find_renderer("svg")
    print(f"renderer: {renderer[0] if renderer else 'none (DOT only)'}")
    print(f"{'workload':<14}{'target':>8}{'nodes':>8}{'boxes':>7}{'view s':>8}{'render s':>10}")
    for make in (tiny_ops, unrolled_rnn, mlp_stack):
        for size in args.sizes:
            recorder = Recorder()
            recorder.start()
            try:
                loss = make(size)
                loss.backward()
            finally:
                recorder.stop()
            trace = recorder.to_trace([make.__name__])
            start = time.perf_counter()
            view = graphview.build(trace, graphview.Options(call=1))
            dot_text = to_dot(view)
            built = time.perf_counter() - start
            rendered = float("nan")
            if renderer:
                with tempfile.TemporaryDirectory() as tmp:
                    start = time.perf_counter()
                    diagram.render(dot_text, os.path.join(tmp, "g.svg"), "svg")
                    rendered = time.perf_counter() - start
            print(f"{make.__name__:<14}{size:>8}{view.total_nodes:>8}{len(view.boxes):>7}{built:>8.2f}{rendered:>10.2f}")


if __name__ == "__main__":
    main()
