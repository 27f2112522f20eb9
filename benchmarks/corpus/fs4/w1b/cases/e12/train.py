import compat  # noqa: F401
import torch
import torch.nn.functional as F
from transformers import ViTConfig, ViTModel

from adapters import inject_lora, trainable_parameters

TRAIN_CONFIG = {
    "backbone": dict(image_size=32, patch_size=8, num_channels=3, hidden_size=64, num_hidden_layers=3,
                     num_attention_heads=4, intermediate_size=128, add_pooling_layer=False),
    "lora": dict(target_modules=("q_proj", "v_proj"), r=4, alpha=8, dropout=0.0),
    "gradient_checkpointing": True,
    "gradient_checkpointing_kwargs": {"use_reentrant": True},
    "temperature": 0.2,
    "lr": 1e-3,
    "steps": 3,
    "batch_size": 8,
}


def build_encoder(cfg):
    backbone_cfg = dict(cfg["backbone"])
    add_pooling = backbone_cfg.pop("add_pooling_layer")
    model = ViTModel(ViTConfig(**backbone_cfg), add_pooling_layer=add_pooling)
    n = inject_lora(model, **cfg["lora"])
    print(f"wrapped {n} linear layers with LoRA")
    if cfg["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=cfg["gradient_checkpointing_kwargs"])
    return model


def augment(images, g):
    noise = 0.1 * torch.randn(images.shape, generator=g)
    flip = torch.rand(images.size(0), generator=g) < 0.5
    out = images + noise
    out[flip] = out[flip].flip(-1)
    return out


def info_nce(z1, z2, temperature):
    z1 = F.normalize(z1, dim=-1)
    z2 = F.normalize(z2, dim=-1)
    logits = z1 @ z2.t() / temperature
    targets = torch.arange(z1.size(0))
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    cfg = TRAIN_CONFIG
    encoder = build_encoder(cfg)
    encoder.train()
    optimizer = torch.optim.AdamW(trainable_parameters(encoder), lr=cfg["lr"])
    for step in range(cfg["steps"]):
        images = torch.rand(cfg["batch_size"], 3, 32, 32, generator=g)
        v1, v2 = augment(images, g), augment(images, g)
        z1 = encoder(pixel_values=v1).last_hidden_state[:, 0]
        z2 = encoder(pixel_values=v2).last_hidden_state[:, 0]
        loss = info_nce(z1, z2, cfg["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
