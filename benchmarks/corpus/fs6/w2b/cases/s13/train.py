import compat  # noqa: F401

import torch

from model import build_model

torch.manual_seed(0)

cfg = {
    "vocab_size": 120,
    "num_labels": 3,
    "max_len": 24,
    "batch_size": 8,
    "lr": 2e-4,
    "epochs": 2,
    "steps_per_epoch": 4,
    "layers_to_freeze": 2,
    "grad_checkpoint": True,
}


def get_batch(cfg):
    input_ids = torch.randint(1, cfg["vocab_size"], (cfg["batch_size"], cfg["max_len"]))
    lengths = torch.randint(cfg["max_len"] // 2, cfg["max_len"] + 1, (cfg["batch_size"],))
    attention_mask = (torch.arange(cfg["max_len"])[None, :] < lengths[:, None]).long()
    input_ids = input_ids * attention_mask
    labels = torch.randint(0, cfg["num_labels"], (cfg["batch_size"],))
    return input_ids, attention_mask, labels


model = build_model(cfg)
params = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=0.01)

for epoch in range(cfg["epochs"]):
    model.train()
    total = 0.0
    for step in range(cfg["steps_per_epoch"]):
        input_ids, attention_mask, labels = get_batch(cfg)
        loss, _ = model(input_ids, attention_mask, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / cfg['steps_per_epoch']:.4f}")
