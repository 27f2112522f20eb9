"""What recording costs: training-step time under gradscope vs plain Python vs anomaly mode.

Five workloads, each a full training step (forward, backward, optimizer step), timed in one
process, interleaved and repeated: every round runs each variant in a shuffled order, each
variant's step time is the median of its steps, and the ratio is taken against the plain run of
the same round. The table shows the median ratio over rounds and its spread (min-max).

    python benchmarks/overhead.py                # all workloads, 7 rounds
    python benchmarks/overhead.py --rounds 3 --workloads mlp tiny

Variants: plain; gradscope (the recorder as `gradscope run` installs it); gradscope with
`--grad-flow` (a gradient hook on every module output, statistics of every parameter's gradient
after each backward); anomaly mode
(`torch.autograd.set_detect_anomaly(True)`, PyTorch's own debugging aid).
One intra-op thread, so the numbers measure overhead rather than scheduling.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import torch
import torch.nn as nn

from gradscope.recorder import Recorder

torch.set_num_threads(1)


# ---------------------------------------------------------------- workloads
def mlp():
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = torch.randn(128, 256), torch.randint(0, 10, (128,))

    def step():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def cnn():
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,))

    def step():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def transformer():
    layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256, batch_first=True,
                                       dropout=0.1)
    model = nn.Sequential(nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False),
                          nn.Linear(128, 128))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(8, 32, 128)

    def step():
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    return step


def lstm():
    vocab, hidden, steps = 1000, 128, 32
    embed, rnn, head = nn.Embedding(vocab, hidden), nn.LSTM(hidden, hidden, batch_first=True), nn.Linear(hidden, vocab)
    params = [*embed.parameters(), *rnn.parameters(), *head.parameters()]
    opt = torch.optim.SGD(params, lr=0.1)
    tokens = torch.randint(0, vocab, (16, steps + 1))

    def step():
        opt.zero_grad()
        out, _ = rnn(embed(tokens[:, :-1]))
        loss = nn.functional.cross_entropy(head(out).reshape(-1, vocab), tokens[:, 1:].reshape(-1))
        loss.backward()
        nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
    return step


def tiny():
    w = torch.randn(16, requires_grad=True)
    opt = torch.optim.SGD([w], lr=1e-4)

    def step():
        opt.zero_grad()
        h = w
        for _ in range(5000):  # 10k tiny ops
            h = h * 1.0001 + 0.0001
        h.sum().backward()
        opt.step()
    return step


WORKLOADS = {"mlp": mlp, "cnn": cnn, "transformer": transformer, "lstm": lstm, "tiny": tiny}


# ---------------------------------------------------------------- variants
class Plain:
    name = "plain"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Gradscope:
    name = "gradscope"
    settings: dict = {}

    def __enter__(self):
        self.recorder = Recorder(**self.settings)
        self.recorder.start()
        return self

    def __exit__(self, *exc):
        self.recorder.stop()
        return False


class Anomaly:
    name = "anomaly"

    def __enter__(self):
        self.previous = torch.is_anomaly_enabled()
        torch.autograd.set_detect_anomaly(True)
        return self

    def __exit__(self, *exc):
        torch.autograd.set_detect_anomaly(self.previous)
        return False


class GradFlow(Gradscope):
    name = "--grad-flow"
    settings = {"grad_flow": ()}  # every module watched, as `gradscope run --grad-flow` does


VARIANTS = [Plain, Gradscope, GradFlow, Anomaly]


def median_step(step, steps: int) -> float:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, rounds: int, steps: int, seed: int) -> dict:
    torch.manual_seed(0)
    step = WORKLOADS[name]()
    for _ in range(3):
        step()  # warm up: allocator, lazy init, optimizer state
    rng = random.Random(seed)
    ratios: dict[str, list[float]] = {v.name: [] for v in VARIANTS[1:]}
    plain_ms = []
    import warnings
    warnings.filterwarnings("ignore", message="Anomaly Detection has been enabled")
    for _ in range(rounds):
        order = VARIANTS[:]
        rng.shuffle(order)
        seconds = {}
        for variant in order:
            with variant():
                step()  # one unmeasured step in the new setting
                seconds[variant.name] = median_step(step, steps)
        plain_ms.append(seconds["plain"] * 1e3)
        for v in ratios:
            ratios[v].append(seconds[v] / seconds["plain"])
    return {"plain_ms": statistics.median(plain_ms), "ratios": ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", nargs="*", default=list(WORKLOADS), choices=list(WORKLOADS))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=None, help="steps per measurement (default per workload)")
    args = parser.parse_args()
    default_steps = {"mlp": 30, "cnn": 10, "transformer": 10, "lstm": 10, "tiny": 5}
    print(f"torch {torch.__version__}, 1 intra-op thread, {args.rounds} rounds; ratio = step time / plain "
          "(median over rounds, [min-max])")
    shown = [v.name for v in VARIANTS[1:]]
    print(f"{'workload':<12}{'plain ms':>10}" + "".join(f"  {v:>22}" for v in shown))
    for name in args.workloads:
        result = measure(name, args.rounds, args.steps or default_steps[name], seed=1)
        cells = []
        for variant in shown:
            values = result["ratios"][variant]
            cells.append(f"{statistics.median(values):5.2f}x [{min(values):.2f}-{max(values):.2f}]")
        print(f"{name:<12}{result['plain_ms']:>10.1f}" + "".join(f"  {c:>22}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
