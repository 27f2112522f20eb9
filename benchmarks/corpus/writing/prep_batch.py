"""Merge the writers' parts of a blind batch into benchmarks/corpus/BATCH and build the neutral,
shuffled anchor folders (sources + OUTPUT.txt of a plain run) with their map. Prints counts only."""
import json, os, random, shutil, subprocess, sys
import argparse
_args = argparse.ArgumentParser(description=__doc__)
_args.add_argument("batch")
_args.add_argument("--seed", type=int, default=20261205)
_args.add_argument("--anchor", action="store_true", help="also build the shuffled anchor folders")
_opts = _args.parse_args()
BATCH, SEED = _opts.batch, _opts.seed
SEALED = f"/work/sealed/{BATCH}"
DEST = f"/work/main/benchmarks/corpus/{BATCH}"
ANCHOR = f"/work/anchor/{BATCH}"
PY = "/work/main/.venv/bin/python"
ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pt", "*.pth", "*.log")
os.makedirs(DEST, exist_ok=True)
merged = []
for part in sorted(os.listdir(SEALED)):
    src = os.path.join(SEALED, part)
    if os.path.exists(os.path.join(DEST, part)):
        shutil.rmtree(os.path.join(DEST, part))
    shutil.copytree(src, os.path.join(DEST, part), ignore=ignore)
    for case in json.load(open(os.path.join(src, "cases.json"))):
        case = dict(case)
        case["entry"] = f"{part}/{case['entry']}"
        merged.append(case)
json.dump(merged, open(os.path.join(DEST, "cases.json"), "w"), indent=1)
if _opts.anchor:
    shutil.rmtree(ANCHOR, ignore_errors=True)
    os.makedirs(ANCHOR)
    order = list(merged)
    random.Random(SEED).shuffle(order)
    mapping = {}
    for i, case in enumerate(order, 1):
        q = f"q{i:02d}"
        case_dir = os.path.dirname(os.path.join(DEST, case["entry"]))
        shutil.copytree(case_dir, os.path.join(ANCHOR, q), ignore=ignore)
        entry = os.path.basename(case["entry"])
        env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        p = subprocess.run([PY, entry], cwd=os.path.join(ANCHOR, q), capture_output=True, text=True, timeout=300, env=env)
        with open(os.path.join(ANCHOR, q, "OUTPUT.txt"), "w") as f:
            f.write(f"$ python {entry}\n{p.stdout}{p.stderr}\n[exit status {p.returncode}]\n")
        for root, dirs, files in os.walk(os.path.join(ANCHOR, q)):
            for d in dirs:
                if d == "__pycache__":
                    shutil.rmtree(os.path.join(root, d))
        mapping[q] = {"name": case["name"], "entry": entry}
    json.dump(mapping, open(f"/work/batches/{BATCH}_map.json", "w"), indent=1)  # (outside the folders the anchors read)
print(len(merged), "cases;", sum(c["kind"] == "bug" for c in merged), "bugs")
