import compat  # noqa: F401
from dataclasses import dataclass

import torch
from transformers import set_seed
from transformers.utils import logging

from model import TinyLlavaForConditionalGeneration

logging.set_verbosity_error()


@dataclass
class TrainingArguments:
    tune_type_llm: str = "full"
    tune_vision_tower: bool = True
    tune_connector: bool = True
    learning_rate: float = 2e-4
    vision_tower_lr: float = 2e-5
    max_steps: int = 4
    batch_size: int = 2


VISION_CFG = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                  image_size=32, patch_size=8)
TEXT_CFG = dict(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2)


def configure_trainable(model, args):
    model.language_model.requires_grad_(args.tune_type_llm == "full")
    model.connector.requires_grad_(args.tune_connector)
    model.vision_tower.requires_grad_(args.tune_vision_tower)


def build_optimizer(model, args):
    vision = [p for p in model.vision_tower.parameters() if p.requires_grad]
    rest = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("vision_tower.")]
    groups = [{"params": rest, "lr": args.learning_rate}]
    if vision:
        groups.append({"params": vision, "lr": args.vision_tower_lr})
    return torch.optim.AdamW(groups, weight_decay=0.0)


def fake_batch(args):
    images = torch.randn(args.batch_size, 3, 32, 32)
    input_ids = torch.randint(0, 128, (args.batch_size, 12))
    return input_ids, images, input_ids.clone()


def main():
    set_seed(0)
    args = TrainingArguments()
    model = TinyLlavaForConditionalGeneration(VISION_CFG, TEXT_CFG)
    configure_trainable(model, args)
    optimizer = build_optimizer(model, args)
    model.train()
    for step in range(args.max_steps):
        input_ids, images, labels = fake_batch(args)
        out = model(input_ids=input_ids, images=images, labels=labels)
        optimizer.zero_grad()
        out.loss.backward()
        optimizer.step()
        print(f"step {step} loss {out.loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main()
