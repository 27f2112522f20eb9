BASE = {
    "img_size": 32,
    "patch_size": 8,
    "in_chans": 3,
    "dim": 64,
    "heads": 4,
    "depth": 3,
    "embed_dim": 32,
    "freeze_stem": False,
    "grad_checkpointing": False,
    "checkpoint_use_reentrant": True,
    "lr": 3e-4,
    "batch_size": 8,
    "steps": 3,
    "margin": 0.2,
}

EXPERIMENTS = {
    "pretrain": {},
    "finetune_lowmem": {
        "freeze_stem": True,
        "grad_checkpointing": True,
    },
}


def get_config(name):
    cfg = dict(BASE)
    cfg.update(EXPERIMENTS[name])
    return cfg
