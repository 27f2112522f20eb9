CONFIG = {
    "project_name": "distil-gpt2-small",
    "dataset": {"num_samples": 16, "seq_len": 24, "vocab_size": 128},
    "models": {
        "teacher": {"n_layer": 3, "n_embd": 64, "n_head": 4},
        "student": {"n_layer": 1, "n_embd": 32, "n_head": 4},
    },
    "distillation": {"temperature": 2.0, "alpha": 0.5},
    "training": {
        "per_device_train_batch_size": 2,
        "gradient_accumulation_steps": 4,
        "learning_rate": 0.05,
        "num_train_epochs": 1,
        "max_grad_norm": None,
    },
    "seed": 42,
}
