import compat  # noqa: F401
import torch
import torch.nn.functional as F
from transformers import ViTConfig, ViTForImageClassification

from config import TRAIN_CONFIG
from lora import inject_lora, lora_parameters


def build_model(cfg):
    vit_cfg = ViTConfig(
        image_size=cfg["image_size"],
        patch_size=cfg["patch_size"],
        num_channels=3,
        hidden_size=cfg["hidden_size"],
        num_hidden_layers=cfg["num_layers"],
        num_attention_heads=cfg["num_heads"],
        intermediate_size=cfg["hidden_size"] * 2,
        num_labels=cfg["num_labels"],
    )
    model = ViTForImageClassification(vit_cfg)
    for p in model.parameters():
        p.requires_grad_(False)
    inject_lora(model.vit, cfg["lora_targets"], cfg["lora_r"], cfg["lora_alpha"])
    if cfg["train_classifier"]:
        model.classifier.requires_grad_(True)
    return model


def make_batches(cfg, n_batches):
    g = torch.Generator().manual_seed(cfg["seed"] + 1)
    for _ in range(n_batches):
        pixels = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=g)
        labels = torch.randint(0, cfg["num_labels"], (cfg["batch_size"],), generator=g)
        yield pixels, labels


def train(cfg):
    torch.manual_seed(cfg["seed"])
    model = build_model(cfg)
    if cfg["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=cfg["gradient_checkpointing_kwargs"])
    params = [p for p in model.parameters() if p.requires_grad]
    n_lora = sum(p.numel() for p in lora_parameters(model))
    print(f"trainable tensors: {len(params)} (lora elements: {n_lora})")
    optimizer = torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=0.0)

    model.train()
    for step, (pixels, labels) in enumerate(make_batches(cfg, cfg["max_steps"])):
        logits = model(pixel_values=pixels).logits
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = train(TRAIN_CONFIG)
