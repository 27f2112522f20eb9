import compat  # noqa: F401
import torch
from torch.utils.data import TensorDataset
from transformers import ViTConfig, ViTForImageClassification
from transformers.utils import logging

from lora import inject_lora, trainable_summary
from trainer import FinetuneTrainer

logging.set_verbosity_error()
torch.manual_seed(0)

TRAINING_ARGS = {
    "learning_rate": 5e-4,
    "weight_decay": 0.01,
    "label_smoothing": 0.1,
    "per_device_train_batch_size": 8,
    "num_train_epochs": 2,
    "gradient_checkpointing": True,
    "gradient_checkpointing_kwargs": {"use_reentrant": True},
}

LORA_ARGS = {"target_modules": ("q_proj", "v_proj"), "r": 8, "alpha": 16, "dropout": 0.1}


def main():
    config = ViTConfig(image_size=32, patch_size=8, num_channels=3, hidden_size=64,
                       num_hidden_layers=4, num_attention_heads=4, intermediate_size=128,
                       num_labels=5)
    model = ViTForImageClassification(config)
    model = inject_lora(model, **LORA_ARGS)
    print(trainable_summary(model))

    images = torch.randn(32, 3, 32, 32)
    labels = torch.randint(0, 5, (32,))
    trainer = FinetuneTrainer(model, TRAINING_ARGS, TensorDataset(images, labels),
                              TensorDataset(images[:8], labels[:8]))
    trainer.train()


if __name__ == "__main__":
    main()
