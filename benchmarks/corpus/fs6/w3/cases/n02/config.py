CONFIG = {
    "seed": 42,
    "vocab_size": 500,
    "embed_dim": 32,
    "hidden_dim": 64,
    "num_labels": 4,
    "lr": 3e-3,
    "num_epochs": 2,
    "per_device_batch_size": 8,
    "gradient_accumulation_steps": 4,
    "max_grad_norm": 1.0,
}
