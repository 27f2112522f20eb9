stage1 = {
    "seed": 42,
    "solver": {
        "learning_rate": 1e-4,
        "gradient_accumulation_steps": 1,
        "gradient_checkpointing": True,
        "max_train_steps": 4,
        "max_grad_norm": 1.0,
    },
    "model": {
        "channels": 32,
        "num_blocks": 3,
        "heads": 4,
        "tokens": 16,
    },
    "data": {
        "train_bs": 2,
    },
    "noise_scheduler": {
        "num_train_timesteps": 100,
        "beta_start": 1e-4,
        "beta_end": 2e-2,
    },
}
