CFG = {
    "model": "vit_tiny_patch16_224",
    "model_kwargs": {"img_size": 32, "patch_size": 8, "depth": 2, "num_classes": 10,
                     "drop_path_rate": 0.1},
    "grad_checkpointing": True,
    "opt": "adamw",
    "lr": 5e-4,
    "weight_decay": 0.05,
    "layer_decay": 0.75,
    "mixup": {"mixup_alpha": 0.8, "cutmix_alpha": 1.0, "label_smoothing": 0.1},
    "batch_size": 16,
    "steps": 4,
}
