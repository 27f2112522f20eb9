import compat  # noqa: F401
import torch
import torch.nn.functional as F
from transformers import ViTConfig, ViTModel

from lora import inject_lora, trainable_parameters

CFG = {
    "vision": {"image_size": 32, "patch_size": 8, "hidden_size": 64, "num_hidden_layers": 2,
               "num_attention_heads": 4, "intermediate_size": 128},
    "embed_dim": 64,
    "num_classes": 6,
    "peft": {"enabled": True, "targets": ("q_proj", "v_proj"), "r": 4, "alpha": 8.0},
    "train": {"steps": 3, "batch_size": 8, "lr": 1e-3, "temperature": 0.07,
              "grad_checkpointing": True,
              "grad_checkpointing_kwargs": {"use_reentrant": True}},
}


class ImageTower(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = ViTModel(ViTConfig(**cfg["vision"]), add_pooling_layer=False)
        self.proj = torch.nn.Linear(cfg["vision"]["hidden_size"], cfg["embed_dim"], bias=False)

    def forward(self, pixel_values):
        hidden = self.encoder(pixel_values=pixel_values).last_hidden_state
        return F.normalize(self.proj(hidden[:, 0]), dim=-1)


def build(cfg):
    tower = ImageTower(cfg)
    text_embeds = F.normalize(torch.randn(cfg["num_classes"], cfg["embed_dim"]), dim=-1)
    if cfg["peft"]["enabled"]:
        inject_lora(tower, cfg["peft"]["targets"], r=cfg["peft"]["r"], alpha=cfg["peft"]["alpha"])
    tcfg = cfg["train"]
    if tcfg["grad_checkpointing"]:
        tower.encoder.gradient_checkpointing_enable(
            gradient_checkpointing_kwargs=tcfg["grad_checkpointing_kwargs"])
    return tower, text_embeds


def contrastive_loss(image_embeds, text_embeds, labels, temperature):
    logits = image_embeds @ text_embeds.t() / temperature
    return F.cross_entropy(logits, labels)


def main():
    torch.manual_seed(0)
    tower, text_embeds = build(CFG)
    tcfg = CFG["train"]
    optimizer = torch.optim.AdamW(trainable_parameters(tower), lr=tcfg["lr"])
    tower.train()
    for step in range(tcfg["steps"]):
        images = torch.randn(tcfg["batch_size"], 3, 32, 32)
        labels = torch.randint(0, CFG["num_classes"], (tcfg["batch_size"],))
        loss = contrastive_loss(tower(images), text_embeds, labels, tcfg["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
