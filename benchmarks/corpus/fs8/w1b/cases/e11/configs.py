CONFIGS = {
    "full_ft": {
        "dim": 64, "depth": 4, "heads": 4, "num_classes": 10, "adapter_dim": 16,
        "gradient_checkpointing": False, "tuning": "full", "lr": 1e-3, "steps": 3,
    },
    "adapter_ckpt": {
        "dim": 64, "depth": 4, "heads": 4, "num_classes": 10, "adapter_dim": 16,
        "gradient_checkpointing": True, "tuning": "adapter", "lr": 1e-3, "steps": 3,
    },
}
