"""Drives IPython's InteractiveShell through gradscope's magics (tests/e2e/test_ipython.py) and
prints what each scenario showed, as JSON: a shell is process-wide, so it runs here, not in the
test process."""

import json
import re
import sys
import tracemalloc

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

ANSI = re.compile(r"\x1b\[[0-9;]*m")
shell = InteractiveShell.instance()


def run(source):
    with capture_output() as captured:
        result = shell.run_cell(source, store_history=True)
    shown = [out.data.get("text/plain", "") for out in captured.outputs]
    return {"success": result.success, "stdout": ANSI.sub("", captured.stdout),
            "stderr": ANSI.sub("", captured.stderr), "shown": shown}


def frames(text):
    """The traceback's frames below the cell: (file, function) in order."""
    return re.findall(r"^File (\S+?):\d+, in (\w+)", text, re.M)


FAILING = "x = torch.ones(3, requires_grad=True)\ny = x.sigmoid()\ny.mul_(2)\ny.sum().backward()"
scenario = sys.argv[1]
report = {}
run("import torch")
if scenario == "traceback":
    plain = run(FAILING)
    run("%load_ext gradscope")
    recorded = run("%%gradscope\n" + FAILING)
    report = {"plain_frames": frames(plain["stdout"]), "recorded_frames": frames(recorded["stdout"]),
              "plain_cell": re.findall(r"Cell In\[\d+\], line \d+", plain["stdout"]),
              "recorded_cell": re.findall(r"Cell In\[\d+\], line \d+", recorded["stdout"]),
              "success": recorded["success"], "shown": recorded["shown"]}
elif scenario == "session":
    run("%load_ext gradscope")
    cells = ["%gradscope on", "w = torch.randn(3, requires_grad=True) * 0.01\nx = torch.randn(3)",
             "loss = (w * x).sum() ** 2\nloss.backward()\nprint(w.grad)", "print('quiet cell')",
             "%gradscope off", "w.grad"]
    report = {"cells": [run(cell) for cell in cells]}
elif scenario == "options":
    run("%load_ext gradscope")
    report = {"bad": run("%%gradscope --no-such-option\nprint('ran')"),
              "nested": run("%%gradscope\nimport gradscope\nwith gradscope.record():\n    pass"),
              "after": run("%%gradscope --check-nan\nw = torch.ones(2, requires_grad=True)\nw.exp().sum().backward()")}
elif scenario in ("memory", "memory_plain"):
    if scenario == "memory":  # memory_plain: the same cells without gradscope (IPython keeps each cell)
        run("%load_ext gradscope")
        run("%gradscope on")
    run("model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)")
    step = ("for _ in range(5):\n    opt.zero_grad()\n    loss = model(torch.randn(32, 64)).pow(2).mean()\n"
            "    loss.backward()\n    opt.step()")
    tracemalloc.start()
    sizes = []
    for index in range(300):
        run(step)
        if index in (99, 199, 299):
            sizes.append(tracemalloc.get_traced_memory()[0])
    report = {"after_100": sizes[0], "after_200": sizes[1], "after_300": sizes[2], "shown": len(getattr(shell, "_gradscope", None).shown) if hasattr(shell, "_gradscope") else 0}
print(json.dumps(report))
