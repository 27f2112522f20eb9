CONFIG = {
    "seed": 0,
    "model": {
        "image_size": 32,
        "patch_size": 8,
        "hidden_size": 64,
        "num_hidden_layers": 4,
        "num_attention_heads": 4,
        "intermediate_size": 128,
    },
    "lora": {
        "r": 4,
        "alpha": 8,
        "dropout": 0.0,
        "target_modules": ["q_proj", "v_proj"],
    },
    "train": {
        "batch_size": 8,
        "lr": 1e-3,
        "steps": 3,
        "temperature": 0.1,
        "gradient_checkpointing": True,
        "gradient_checkpointing_kwargs": {"use_reentrant": True},
    },
}
