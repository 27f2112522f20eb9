import torch
import torch.nn.functional as F

from config import CONFIG
from model import RetrievalEncoder


def info_nce(z1, z2, temperature):
    logits = z1 @ z2.t() / temperature
    targets = torch.arange(z1.size(0))
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))


def augment(images):
    noise = 0.05 * torch.randn_like(images)
    return (images + noise).clamp(-1.0, 1.0)


def main():
    tcfg = CONFIG["train"]
    torch.manual_seed(tcfg["seed"])
    encoder = RetrievalEncoder(CONFIG)
    if tcfg["activation_checkpointing"]:
        encoder.backbone.activation_checkpointing_enable(
            activation_checkpointing_kwargs=tcfg["activation_checkpointing_kwargs"]
        )
    encoder.train()
    optimizer = torch.optim.AdamW(encoder.trainable_parameters(), lr=tcfg["lr"])
    print(f"lora adapters: {encoder.n_adapters}")

    mcfg = CONFIG["model"]
    for step in range(tcfg["steps"]):
        images = torch.rand(tcfg["batch_size"], 3, mcfg["image_size"], mcfg["image_size"]) * 2 - 1
        z1 = encoder(augment(images))
        z2 = encoder(augment(images))
        loss = info_nce(z1, z2, tcfg["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
