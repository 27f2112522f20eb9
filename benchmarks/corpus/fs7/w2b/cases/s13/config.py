DEFAULTS = {
    "embedding_dimension": 32,
    "num_rbf": 16,
    "cutoff_upper": 5.0,
    "max_num_neighbors": 32,
    "loop": True,
    "derivative": True,
    "energy_weight": 1.0,
    "force_weight": 0.0,
    "lr": 5e-4,
    "num_epochs": 3,
    "batch_size": 4,
    "seed": 1,
}


def load_config(overrides=None):
    cfg = dict(DEFAULTS)
    cfg.update(overrides or {})
    return cfg
