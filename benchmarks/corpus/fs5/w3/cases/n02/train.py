import math

import torch
from torch.utils.data import DataLoader

import compat  # noqa: F401
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from data import RandomTextDataset

CONFIG = {
    "vocab_size": 200,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 64,
    "num_labels": 3,
    "seq_len": 24,
    "n_examples": 48,
    "per_device_batch_size": 4,
    "gradient_accumulation_steps": 4,
    "epochs": 2,
    "lr": 5e-4,
    "max_grad_norm": 1.0,
}


def build_model(cfg):
    config = BertConfig(
        vocab_size=cfg["vocab_size"],
        hidden_size=cfg["hidden_size"],
        num_hidden_layers=cfg["num_hidden_layers"],
        num_attention_heads=cfg["num_attention_heads"],
        intermediate_size=cfg["intermediate_size"],
        max_position_embeddings=64,
        num_labels=cfg["num_labels"],
    )
    return BertForSequenceClassification(config)


def train(model, loader, cfg):
    accum = cfg["gradient_accumulation_steps"]
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=cfg["lr"])
    updates_per_epoch = math.ceil(len(loader) / accum)
    total = updates_per_epoch * cfg["epochs"]
    scheduler = get_linear_schedule_with_warmup(optimizer, total // 10, total)

    model.train()
    global_step = 0
    for epoch in range(cfg["epochs"]):
        running = 0.0
        optimizer.zero_grad()
        for step, batch in enumerate(loader):
            outputs = model(**batch)
            loss = outputs.loss / accum
            loss.backward()
            running += loss.item()
            if (step + 1) % accum == 0 or step + 1 == len(loader):
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                global_step += 1
                print(f"epoch {epoch} update {global_step} loss {running:.4f}")
                running = 0.0
    return global_step


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model(CONFIG)
    ds = RandomTextDataset(CONFIG["n_examples"], CONFIG["seq_len"], CONFIG["vocab_size"], CONFIG["num_labels"])
    loader = DataLoader(ds, batch_size=CONFIG["per_device_batch_size"], shuffle=True)
    steps = train(model, loader, CONFIG)
    print("optimizer updates:", steps)
