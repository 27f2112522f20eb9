CFG = {
    "seed": 42,
    "image_size": 16,
    "patch": 4,
    "dim": 32,
    "heads": 4,
    "depth": 2,
    "num_samples": 16,
    "train_batch_size": 2,
    "gradient_accumulation_steps": 2,
    "learning_rate": 1e-4,
    "max_train_steps": 4,
    "num_train_timesteps": 1000,
}
