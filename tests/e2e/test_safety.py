"""gradscope must not change what the program computes, even where hooking into autograd could.

The known trap: `saved_tensors_hooks` switch off torch's own version check of saved tensors, so
a recorder built on them would turn the in-place error into silently wrong gradients. gradscope
does not use them; these tests would catch it if it ever did.
"""

from __future__ import annotations

import textwrap

from conftest import SAMPLES, run_gradscope, run_python

IN_PLACE = textwrap.dedent("""
    import torch
    a = torch.tensor([1.0, 3.0], requires_grad=True)
    b = a + 2
    loss = (b * b).mean()
    b[0] = 1000.0
    loss.backward()
    print(a.grad)
""")


def test_version_check_still_raises_under_gradscope(tmp_path):
    script = tmp_path / "seed.py"
    script.write_text(IN_PLACE)
    plain, traced = run_python(script), run_gradscope("run", str(script))
    assert plain.returncode == traced.returncode == 1
    assert "is at version 1; expected version 0" in plain.stderr
    assert traced.stderr.startswith(plain.stderr)
    assert traced.stdout == plain.stdout == ""


def test_the_trap_is_real_with_hooks(tmp_path):
    """With identity saved-tensor hooks the same program 'succeeds' with a wrong gradient; under
    gradscope the user's own hooks behave exactly as under Python (wrong, but the same)."""
    script = tmp_path / "hooks.py"
    script.write_text(textwrap.dedent("""
        import torch
        a = torch.tensor([1.0, 3.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            b = a + 2
            loss = (b * b).mean()
        b[0] = 1000.0
        loss.backward()
        print(a.grad)
    """))
    plain, traced = run_python(script), run_gradscope("run", str(script))
    assert plain.returncode == traced.returncode == 0
    assert plain.stdout == traced.stdout == "tensor([1000.,    5.])\n"


def test_users_anomaly_mode_output_unchanged(tmp_path):
    script = tmp_path / "anomaly.py"
    script.write_text("import torch\ntorch.autograd.set_detect_anomaly(True)\n" + IN_PLACE)
    plain, traced = run_python(script), run_gradscope("run", str(script))
    assert plain.returncode == traced.returncode == 1
    assert "Traceback of forward call that caused the error" in plain.stderr
    assert traced.stderr.startswith(plain.stderr)


SABOTAGE = textwrap.dedent("""
    import importlib

    def broken(*args, **kwargs):
        raise ZeroDivisionError("injected fault in gradscope")

    setattr(getattr(importlib.import_module("gradscope.recorder.{module}"), "{cls}"), "{method}", broken)
""")


def _sabotaged_env(tmp_path, where):
    """An environment in which gradscope's `module.Class.method` (in gradscope.recorder) raises."""
    module, cls, method = where.split(".")
    import os
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SABOTAGE.format(module=module, cls=cls, method=method))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    env["COLUMNS"] = "120"
    return env


def test_crash_in_recording_hook_does_not_kill_the_run(tmp_path):
    sample = SAMPLES / "clean_training_loop.py"
    traced = run_gradscope("run", "--json", str(tmp_path / "r.json"), str(sample),
                           env=_sabotaged_env(tmp_path, "graph.Graph.new_nodes"))
    plain = run_python(sample)
    assert traced.returncode == plain.returncode == 0
    assert traced.stdout == plain.stdout
    assert "gradscope: recording incomplete" in traced.stderr
    assert "your program was not affected" in traced.stderr
    assert "ZeroDivisionError: injected fault in gradscope" in traced.stderr
    import json
    assert json.loads((tmp_path / "r.json").read_text())["internal_errors"]


def test_crash_in_failure_analysis_keeps_the_users_error(tmp_path):
    sample = SAMPLES / "inplace_index_assign.py"
    traced = run_gradscope("run", str(sample), env=_sabotaged_env(tmp_path, "postmortem.PostMortem.explain_backward"))
    plain = run_python(sample)
    assert traced.returncode == plain.returncode == 1
    assert traced.stdout == plain.stdout
    assert traced.stderr.startswith(plain.stderr)
    assert "injected fault in gradscope" in traced.stderr
