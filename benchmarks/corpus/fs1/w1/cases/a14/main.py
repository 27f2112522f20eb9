import compat  # noqa: F401
import torch

from model import IMAGE_TOKEN_ID, VILAForCausalLM
from train import train

CONFIG = {
    "llm": {
        "vocab_size": 96,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "max_position_embeddings": 128,
    },
    "tune_language_model": False,
    "tune_vision_tower": False,
    "tune_mm_projector": True,
    "gradient_checkpointing": True,
}


def make_batches(gen):
    ids = torch.randint(4, 96, (2, 12), generator=gen)
    ids[:, 1] = IMAGE_TOKEN_ID
    image_batch = {"input_ids": ids, "labels": ids.clone(), "attention_mask": torch.ones_like(ids),
                   "media": torch.rand(2, 3, 8, 8, generator=gen)}
    text_ids = torch.randint(4, 96, (2, 12), generator=gen)
    text_batch = {"input_ids": text_ids, "labels": text_ids.clone(),
                  "attention_mask": torch.ones_like(text_ids), "media": None}
    return [image_batch, text_batch]


def build(cfg):
    model = VILAForCausalLM(cfg["llm"])
    model.llm.requires_grad_(cfg["tune_language_model"])
    model.vision_tower.requires_grad_(cfg["tune_vision_tower"])
    model.mm_projector.requires_grad_(cfg["tune_mm_projector"])
    if cfg["gradient_checkpointing"]:
        model.llm.gradient_checkpointing_enable()
    return model


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = build(CONFIG)
    train(model, make_batches(gen))


if __name__ == "__main__":
    main()
