"""Check every case in cases.json: expected lines exist, program exits 0 (silent cases),
a probe confirms the harm, and the stated fix removes it."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
ENV = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")

PRELUDE = "import sys, runpy, copy, torch\nsys.path.insert(0, '.')\nHARM = []\n"
RUN = "\nrunpy.run_path('train.py', run_name='__main__')\n"

PROBES = {
    "s01": PRELUDE + """
import engine
INIT = {}
_init = engine.SequentialEngine.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    INIT['ref'] = {n: p.detach().clone() for n, p in self.net.named_parameters()}
engine.SequentialEngine.__init__ = __init__
_reset = engine.SequentialEngine.reset_network
def reset_network(self):
    _reset(self)
    for n, p in self.net.named_parameters():
        if not torch.equal(p.detach(), INIT['ref'][n]):
            HARM.append('reset left trained weights in ' + n)
            break
engine.SequentialEngine.reset_network = reset_network
""" + RUN,
    "s02": PRELUDE + """
import model
INST = []
_init = model.ReviewClassifier.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    INST.append(self)
model.ReviewClassifier.__init__ = __init__
""" + RUN + """
for n, p in INST[0].named_parameters():
    if not torch.isfinite(p).all():
        HARM.append('non-finite parameter ' + n)
""",
    "s03": PRELUDE + """
import losses, networks
GENS = []
_init = networks.SkipGenerator.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    GENS.append(self)
networks.SkipGenerator.__init__ = __init__
_l2 = losses.l2_loss
def l2_loss(a, b):
    out = _l2(a, b)
    params = list(GENS[0].parameters())
    if not out.requires_grad:
        HARM.append('latent loss has no graph')
    else:
        gs = torch.autograd.grad(out, params, retain_graph=True, allow_unused=True)
        if all(g is None or g.abs().sum() == 0 for g in gs):
            HARM.append('latent loss gives no gradient to the generator')
    return out
losses.l2_loss = l2_loss
""" + RUN,
    "s04": PRELUDE + """
import gan
_ts = gan.GAN.training_step
def training_step(self, batch, batch_idx, optimizer_idx):
    if optimizer_idx == 1:
        for n, p in self.discriminator.named_parameters():
            if p.grad is not None and p.grad.abs().sum() > 0:
                HARM.append('stale gradient in discriminator ' + n)
                break
    return _ts(self, batch, batch_idx, optimizer_idx)
gan.GAN.training_step = training_step
""" + RUN,
    "s05": PRELUDE + """
import model
INST = []
_init = model.PoseRegressor.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    INST.append((self, {n: p.detach().clone() for n, p in self.backbone.named_parameters()}))
model.PoseRegressor.__init__ = __init__
""" + RUN + """
m, ref = INST[0]
for n, p in m.backbone.named_parameters():
    if not torch.equal(p.detach(), ref[n]):
        HARM.append('backbone parameter changed: ' + n)
        break
""",
    "s06": PRELUDE + """
import train as T
NORMS = []
_step = torch.optim.AdamW.step
def step(self, *a, **k):
    gs = [p.grad for g in self.param_groups for p in g['params'] if p.grad is not None]
    NORMS.append(torch.norm(torch.stack([x.norm() for x in gs])).item())
    return _step(self, *a, **k)
torch.optim.AdamW.step = step
""" + RUN + """
lim = T.HPARAMS['max_gradient_norm'] * 1.001
if max(NORMS) > lim:
    HARM.append('optimizer stepped with grad norm %.3f > %.3f' % (max(NORMS), lim))
""",
    "s07": PRELUDE + """
import model
INST = []
_init = model.TwoStreamDetector.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    INST.append((self, self.fuse.pos_emb.detach().clone()))
model.TwoStreamDetector.__init__ = __init__
""" + RUN + """
m, ref = INST[0]
if torch.equal(m.fuse.pos_emb.detach(), ref):
    HARM.append('pos_emb never updated')
""",
    "s08": PRELUDE + """
import losses, nets
DS = []
_init = nets.D.__init__
def __init__(self, *a, **k):
    _init(self, *a, **k)
    DS.append(self)
nets.D.__init__ = __init__
_dis = losses.loss_hinge_dis
def loss_hinge_dis(dis_fake, dis_real):
    for n, p in DS[0].named_parameters():
        if p.grad is not None and p.grad.abs().sum() > 0:
            HARM.append('D gradient carried into a new D step: ' + n)
            break
    return _dis(dis_fake, dis_real)
losses.loss_hinge_dis = loss_hinge_dis
""" + RUN,
}
for k in PROBES:
    PROBES[k] += "\nprint('PROBE_HARM' if HARM else 'PROBE_CLEAN', HARM[:1])\n"


def replace(line, text):
    def f(lines):
        lines[line - 1] = text
        return lines
    return f


def move_before(src, dst):
    def f(lines):
        moved = lines[src - 1]
        out = lines[:]
        del out[src - 1]
        out.insert(dst - 1 if dst < src else dst - 2, moved)
        return out
    return f


def move_into_loop(src, loop_line, indent):
    def f(lines):
        moved = lines[src - 1].strip()
        out = lines[:]
        out.insert(loop_line, indent + moved)
        del out[src - 1]
        return out
    return f


PATCHES = {
    "s01": ("engine.py", replace(26, "        self.init_state = {k: v.clone() for k, v in self.net.state_dict().items()}")),
    "s02": ("model.py", replace(10, "        pooled = summed / counts.clamp(min=1)")),
    "s03": ("model.py", replace(34, "        self.err_g_lat = self.l_lat(self.feat_real, self.netd(self.fake)[1])")),
    "s04": ("lightning_lite.py", replace(26, "        module.zero_grad()")),
    "s05": ("utils.py", replace(12, "        model.backbone.requires_grad_(False)")),
    "s06": ("post_training.py", move_before(26, 25)),
    "s07": ("optim_utils.py", replace(11, "        else:")),
    "s08": ("train_fns.py", move_into_loop(11, 12, "            ")),
}


def run(cmd, cwd, timeout=120):
    return subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout)


def check_case(case):
    name = case["name"]
    entry = os.path.join(HERE, case["entry"])
    cdir = os.path.dirname(entry)
    problems = []
    for f, line, role in case["expected"]:
        path = os.path.join(cdir, f)
        if not os.path.exists(path):
            problems.append("missing file %s" % f)
            continue
        lines = open(path).read().split("\n")
        if line < 1 or line > len(lines) or not lines[line - 1].strip():
            problems.append("blank or missing line %s:%d" % (f, line))
    for f, line in case["fix_site"]:
        if [f, line] not in [[e[0], e[1]] for e in case["expected"]]:
            problems.append("fix site %s:%d not in expected" % (f, line))
    if case["expected"] and case["expected"][0][2] != "fix":
        problems.append("first expected line is not the fix")
    r = run([PY, os.path.basename(entry)], cdir)
    if case["error"]:
        last = (r.stderr.strip().splitlines() or [""])[-1]
        if r.returncode == 0 or not re.search(case["error_regex"], last):
            problems.append("expected error not raised: %s" % last)
    elif r.returncode != 0:
        problems.append("program failed: %s" % r.stderr.strip().splitlines()[-1:])
    if case["kind"] == "bug" and not case["error"]:
        p = run([PY, "-c", PROBES[name]], cdir)
        if "PROBE_HARM" not in p.stdout:
            problems.append("probe did not see the harm: %s %s" % (p.stdout[-200:], p.stderr[-300:]))
        tmp = tempfile.mkdtemp()
        try:
            pdir = os.path.join(tmp, name)
            shutil.copytree(cdir, pdir, ignore=shutil.ignore_patterns("__pycache__"))
            fname, fn = PATCHES[name]
            fpath = os.path.join(pdir, fname)
            lines = open(fpath).read().split("\n")
            open(fpath, "w").write("\n".join(fn(lines)))
            q = run([PY, os.path.basename(entry)], pdir)
            if q.returncode != 0:
                problems.append("fixed program failed: %s" % q.stderr.strip().splitlines()[-1:])
            p2 = run([PY, "-c", PROBES[name]], pdir)
            if "PROBE_CLEAN" not in p2.stdout:
                problems.append("fix did not remove the harm: %s %s" % (p2.stdout[-200:], p2.stderr[-300:]))
        finally:
            shutil.rmtree(tmp)
    return problems


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    only = set(sys.argv[1:])
    failed = []
    for case in cases:
        if only and case["name"] not in only:
            continue
        problems = check_case(case)
        print("%s %s%s" % (case["name"], "OK" if not problems else "FAIL", "" if not problems else ": " + "; ".join(problems)))
        if problems:
            failed.append(case["name"])
    print("ALL OK" if not failed else "FAILURES: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
