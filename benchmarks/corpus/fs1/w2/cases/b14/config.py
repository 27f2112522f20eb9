import json

DEFAULTS = {
    "model": {"width": 16, "integer_counts": False},
    "optim": {"lr": 1e-2},
    "epochs": 3,
    "steps_per_epoch": 8,
}

EXPERIMENT = json.loads("""
{
  "name": "shanghai_b_patches",
  "model": {"integer_counts": true},
  "optim": {"lr": 5e-3}
}
""")


def merge(base, override):
    out = dict(base)
    for k, v in override.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def load_config():
    return merge(DEFAULTS, EXPERIMENT)
