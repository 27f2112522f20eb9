"""Configuration for LoRA fine-tuning of the image retrieval encoder."""

CONFIG = {
    "model": {
        "hidden_size": 64,
        "num_hidden_layers": 4,
        "num_attention_heads": 4,
        "intermediate_size": 128,
        "image_size": 32,
        "patch_size": 8,
        "num_channels": 3,
    },
    "lora": {
        "rank": 4,
        "alpha": 8,
        "targets": ("q_proj", "v_proj"),
    },
    "train": {
        "seed": 0,
        "steps": 3,
        "batch_size": 8,
        "lr": 1e-3,
        "temperature": 0.1,
        "activation_checkpointing": True,
        "activation_checkpointing_kwargs": {"use_reentrant": True},
    },
}
