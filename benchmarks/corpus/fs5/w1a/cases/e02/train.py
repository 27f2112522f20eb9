import compat  # noqa: F401
import torch
import torch.nn.functional as F
from transformers import ViTConfig, ViTModel

from config import CONFIG
from lora import count_trainable, inject_lora


def augment(images):
    noise = 0.1 * torch.randn_like(images)
    flip = torch.rand(images.shape[0], 1, 1, 1) < 0.5
    return torch.where(flip, images.flip(-1), images) + noise


def info_nce(z1, z2, temperature):
    z1 = F.normalize(z1, dim=-1)
    z2 = F.normalize(z2, dim=-1)
    logits = z1 @ z2.t() / temperature
    targets = torch.arange(z1.shape[0])
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))


def build_model(cfg):
    model = ViTModel(ViTConfig(**cfg["model"]), add_pooling_layer=False)
    n = inject_lora(model, **{k: cfg["lora"][k] for k in ("r", "alpha", "dropout")},
                    target_modules=cfg["lora"]["target_modules"])
    trainable, total = count_trainable(model)
    print(f"lora layers: {n}, trainable params: {trainable}/{total}")
    return model


def embed(model, images):
    out = model(pixel_values=images)
    return out.last_hidden_state[:, 0]


def main(cfg=CONFIG):
    torch.manual_seed(cfg["seed"])
    tcfg = cfg["train"]
    model = build_model(cfg)
    if tcfg["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=tcfg["gradient_checkpointing_kwargs"])
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=tcfg["lr"])
    model.train()
    size = cfg["model"]["image_size"]
    for step in range(tcfg["steps"]):
        images = torch.rand(tcfg["batch_size"], 3, size, size)
        z1 = embed(model, augment(images))
        z2 = embed(model, augment(images))
        loss = info_nce(z1, z2, tcfg["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
