import compat  # noqa: F401

import torch
import torch.nn.functional as F
from transformers import ViTConfig, ViTForImageClassification

from lora import inject_lora, mark_only_lora_and_head_trainable, trainable_summary

RECIPE = {
    "seed": 0,
    "num_labels": 6,
    "lora": {"r": 4, "alpha": 8, "target_modules": ["q_proj", "v_proj"]},
    "optim": {"lr": 5e-3, "weight_decay": 0.0},
    "batch_size": 8,
    "steps": 4,
    "gradient_checkpointing": True,
    "gradient_checkpointing_kwargs": {"use_reentrant": True},
}


def build_model(recipe):
    config = ViTConfig(image_size=32, patch_size=8, hidden_size=64, num_hidden_layers=3,
                       num_attention_heads=4, intermediate_size=128,
                       num_labels=recipe["num_labels"])
    model = ViTForImageClassification(config)
    lcfg = recipe["lora"]
    inject_lora(model, lcfg["target_modules"], r=lcfg["r"], alpha=lcfg["alpha"])
    mark_only_lora_and_head_trainable(model)
    if recipe["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(
            gradient_checkpointing_kwargs=recipe["gradient_checkpointing_kwargs"])
    return model


def synthetic_batches(recipe):
    g = torch.Generator().manual_seed(recipe["seed"] + 1)
    for _ in range(recipe["steps"]):
        pixels = torch.randn(recipe["batch_size"], 3, 32, 32, generator=g)
        labels = torch.randint(0, recipe["num_labels"], (recipe["batch_size"],), generator=g)
        yield pixels, labels


def main():
    torch.manual_seed(RECIPE["seed"])
    model = build_model(RECIPE)
    print(trainable_summary(model))
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, **RECIPE["optim"])
    model.train()
    for step, (pixels, labels) in enumerate(synthetic_batches(RECIPE)):
        logits = model(pixel_values=pixels).logits
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main()
