import compat  # noqa: F401
import warnings

import torch
import torch.nn.functional as F
from transformers import AutoModel, ViTConfig
from transformers.utils import logging as hf_logging

from lora import count_trainable, inject_lora, mark_only_lora_as_trainable

warnings.filterwarnings("ignore")
hf_logging.set_verbosity_error()

CFG = {
    "image_size": 32,
    "patch_size": 8,
    "hidden_size": 64,
    "layers": 4,
    "heads": 4,
    "lora_r": 4,
    "lora_alpha": 8,
    "lora_targets": ("q_proj", "v_proj"),
    "gradient_checkpointing": True,
    "gc_kwargs": {"use_reentrant": True},
    "lr": 1e-3,
    "steps": 5,
    "batch_size": 8,
}


def build_student(cfg):
    config = ViTConfig(
        image_size=cfg["image_size"],
        patch_size=cfg["patch_size"],
        hidden_size=cfg["hidden_size"],
        num_hidden_layers=cfg["layers"],
        num_attention_heads=cfg["heads"],
        intermediate_size=cfg["hidden_size"] * 4,
    )
    model = AutoModel.from_config(config)
    inject_lora(model, cfg["lora_targets"], r=cfg["lora_r"], alpha=cfg["lora_alpha"])
    mark_only_lora_as_trainable(model)
    if cfg["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=cfg["gc_kwargs"])
    return model


def feature_loss(student_out, target):
    cls = student_out.last_hidden_state[:, 0]
    return 1.0 - F.cosine_similarity(cls, target, dim=-1).mean()


def main(cfg):
    torch.manual_seed(0)
    model = build_student(cfg)
    model.train()
    trainable, total = count_trainable(model)
    print(f"trainable params: {trainable} / {total}")
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])

    g = torch.Generator().manual_seed(0)
    for step in range(cfg["steps"]):
        pixels = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=g)
        target = torch.randn(cfg["batch_size"], cfg["hidden_size"], generator=g)
        out = model(pixel_values=pixels)
        loss = feature_loss(out, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
