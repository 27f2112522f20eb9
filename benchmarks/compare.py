"""Two versions of gradscope in one interleaved run: did B get slower (or faster) than A?

    python benchmarks/compare.py 9868e49 HEAD --workloads tiny mlp lstm --rounds 5
    python benchmarks/compare.py HEAD ./src                # the uncommitted working tree
    python benchmarks/compare.py 9868e49 HEAD --json compare.json

A version is a commit (resolved in the repository this script lives in and exported with
`git archive <commit> src` into a temporary directory) or a path to a source tree (a directory
holding `gradscope/`, or a checkout holding `src/gradscope/`), used in place.

Why interleaved: the machine is shared and its speed drifts over minutes (other jobs, frequency
changes). Timing all of A and then all of B would fold that drift into B/A. Here every round runs,
for each workload, plain Python, A and B back to back in a shuffled order, and each ratio is taken
within its round, so drift mostly cancels; the spread over rounds shows what is left.

Why separate processes: two versions of the package `gradscope` cannot be imported into one
interpreter (same module names), and a started recorder changes process-wide state (gc.freeze,
a torch function mode, global hooks). So each measurement is a fresh child Python whose PYTHONPATH
is its version's source tree. Every child runs the identical workload code, this tree's
benchmarks/overhead.py (its WORKLOADS, its `Gradscope` variant, its `median_step`); only the
recorder comes from the version's tree. The plain child imports A's recorder too, never starting
it, so all children import the same things. The recorder is built as overhead.py builds it,
keeping only the keyword arguments that version's `Recorder` accepts (older versions take fewer).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_STEPS = {"mlp": 30, "cnn": 10, "transformer": 10, "lstm": 10, "tiny": 5}
WORKLOADS = list(DEFAULT_STEPS)  # the same names as overhead.WORKLOADS (not imported: no torch here)
RATIOS = (("A/plain", "A", "plain"), ("B/plain", "B", "plain"), ("B/A", "B", "A"))


# ---------------------------------------------------------------- child: one measurement
def child(workload: str, steps: int, record: bool) -> None:
    """Time `steps` steps of one workload (median, ms) and print one JSON line."""
    import inspect

    import overhead  # this tree's workloads (the script's folder is on sys.path); its `Recorder` is PYTHONPATH's
    import torch

    params = _recorder_params(inspect, overhead.Recorder)
    variant = overhead.Plain
    if record:
        settings = {k: v for k, v in overhead.Gradscope.settings.items() if k in params}
        variant = type("Version", (overhead.Gradscope,), {"settings": settings})
    torch.manual_seed(0)
    step = overhead.WORKLOADS[workload]()
    for _ in range(3):
        step()  # warm up: allocator, lazy init, optimizer state
    with variant():
        step()  # one unmeasured step in the new setting
        seconds = overhead.median_step(step, steps)
    print(json.dumps({"ms": seconds * 1e3, "gradscope": os.path.dirname(sys.modules["gradscope"].__file__),
                      "recorder_params": params, "torch": torch.__version__}))


def _recorder_params(inspect, recorder) -> list[str]:
    """The settings a version's Recorder takes by name: its parameters, or (since the recorder
    takes a Settings object and overrides by name) the fields of gradscope.settings.Settings."""
    params = inspect.signature(recorder).parameters
    names = [n for n, p in params.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        import dataclasses

        from gradscope.settings import Settings

        names += [f.name for f in dataclasses.fields(Settings) if f.name not in names]
    return names


# ---------------------------------------------------------------- parent: versions
def export(spec: str, into: str) -> dict:
    """A version from a commit or a source-tree path: its label, commit and src directory."""
    if os.path.isdir(spec):
        src = os.path.join(spec, "src") if os.path.isdir(os.path.join(spec, "src", "gradscope")) else spec
        if not os.path.isfile(os.path.join(src, "gradscope", "__init__.py")):
            sys.exit(f"{spec}: no gradscope/ package in it or in its src/")
        return {"spec": spec, "commit": None, "src": os.path.abspath(src)}
    git = ["git", "-C", os.path.dirname(HERE)]  # the repository's root: `src` names its top-level src/
    commit = subprocess.run([*git, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"], capture_output=True,
                            text=True).stdout.strip()
    if not commit:
        sys.exit(f"{spec}: neither a directory nor a commit of the repository holding {HERE}")
    target = os.path.join(into, commit[:12])
    os.makedirs(target, exist_ok=True)
    subprocess.run([*git, "archive", f"--output={target}/src.tar", commit, "src"], check=True)
    subprocess.run(["tar", "-xf", "src.tar"], cwd=target, check=True)
    return {"spec": spec, "commit": commit, "src": os.path.join(target, "src")}


def run_child(src: str, workload: str, steps: int, record: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=src)  # replaced, not prepended: no other gradscope may win
    command = [sys.executable, os.path.abspath(__file__), "--child", workload, str(steps)]
    proc = subprocess.run(command + (["--record"] if record else []), capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        sys.exit(f"child {workload} (PYTHONPATH={src}) failed:\n{proc.stderr}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if os.path.realpath(result["gradscope"]) != os.path.realpath(os.path.join(src, "gradscope")):
        sys.exit(f"child imported gradscope from {result['gradscope']}, not from {src}")
    return result


# ---------------------------------------------------------------- parent: the interleaved run
def measure(versions: dict, workloads: list, rounds: int, steps: int | None, seed: int) -> dict:
    """Round by round, workload by workload: plain, A and B, each in its own child, shuffled."""
    rng = random.Random(seed)
    ms = {w: {"plain": [], "A": [], "B": []} for w in workloads}
    for r in range(rounds):
        for workload in workloads:
            order = ["plain", "A", "B"]
            rng.shuffle(order)
            for who in order:
                version = versions["A" if who == "plain" else who]  # plain: A's tree, recorder not started
                result = run_child(version["src"], workload, steps or DEFAULT_STEPS[workload], record=who != "plain")
                ms[workload][who].append(result["ms"])
                version.update(recorder_params=result["recorder_params"], torch=result["torch"])
            cells = " ".join(f"{k} {ms[workload][k][-1]:.1f}" for k in ("plain", "A", "B"))
            print(f"  round {r + 1}/{rounds} {workload}: {cells} ms", file=sys.stderr, flush=True)
    return {w: summarize(ms[w], steps or DEFAULT_STEPS[w]) for w in workloads}


def summarize(ms: dict, steps: int) -> dict:
    ratios = {}
    for name, top, bottom in RATIOS:
        values = [t / b for t, b in zip(ms[top], ms[bottom])]  # within a round
        ratios[name] = {"median": statistics.median(values), "min": min(values), "max": max(values),
                        "rounds": values}
    return {"steps": steps, "ms": ms, "median_ms": {k: statistics.median(v) for k, v in ms.items()},
            "ratios": ratios}


def table(results: dict) -> str:
    head = f"{'workload':<10}{'plain ms':>9}{'A ms':>9}{'B ms':>9}" + "".join(f"  {n:>20}" for n, _, _ in RATIOS)
    lines = [head]
    for workload, r in results.items():
        cells = "".join(f"  {r['ratios'][n]['median']:6.3f}x [{r['ratios'][n]['min']:.2f}-{r['ratios'][n]['max']:.2f}]"
                        for n, _, _ in RATIOS)
        lines.append(f"{workload:<10}" + "".join(f"{r['median_ms'][k]:>9.1f}" for k in ("plain", "A", "B")) + cells)
    return "\n".join(lines)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2], int(sys.argv[3]), "--record" in sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="version A: a commit, or a path to a source tree (e.g. ./src)")
    parser.add_argument("b", help="version B: a commit, or a path to a source tree")
    parser.add_argument("--workloads", nargs="*", default=["tiny", "mlp", "lstm"], choices=WORKLOADS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=None, help="steps per measurement (default per workload)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the order shuffle")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gradscope-compare-") as tmp:
        versions = {"A": export(args.a, tmp), "B": export(args.b, tmp)}
        results = measure(versions, args.workloads, args.rounds, args.steps, args.seed)
    torch_version = versions["A"]["torch"]
    for key, v in versions.items():
        print(f"{key} = {v['spec']}" + (f" ({v['commit'][:12]})" if v["commit"] else f" ({v['src']})")
              + f": Recorder({', '.join(v['recorder_params'])})")
    print(f"torch {torch_version}, 1 intra-op thread, {args.rounds} rounds, one child process per measurement; "
          "ms = median over rounds of each child's median step; ratio = within a round, median [min-max] over rounds")
    print(table(results), flush=True)
    if args.json:
        for v in versions.values():
            if v["commit"]:
                del v["src"]  # an exported copy in a temporary directory, gone now
        document = {"torch": torch_version, "rounds": args.rounds, "versions": versions, "workloads": results}
        with open(args.json, "w") as f:
            json.dump(document, f, indent=2)


if __name__ == "__main__":
    main()
