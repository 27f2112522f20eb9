import compat  # noqa: F401
import torch
import torch.nn.functional as F

import config
from model import SentenceClassifier


def make_batches(cfg, vocab_size, generator):
    batches = []
    for _ in range(cfg["num_batches"]):
        ids = torch.randint(1, vocab_size, (cfg["batch_size"], cfg["seq_len"]), generator=generator)
        mask = torch.ones_like(ids)
        mask[:, -3:] = 0
        labels = torch.randint(0, cfg["num_labels"], (cfg["batch_size"],), generator=generator)
        batches.append((ids, mask, labels))
    return batches


def build_optimizer(model, cfg):
    params = [p for p in model.parameters() if p.requires_grad]
    return torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"])


def train(model, batches, cfg):
    optimizer = build_optimizer(model, cfg)
    model.train()
    for epoch in range(cfg["epochs"]):
        total = 0.0
        for ids, mask, labels in batches:
            logits = model(ids, mask)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(batches):.4f}")


torch.manual_seed(0)
gen = torch.Generator().manual_seed(1)
cfg = config.TRAIN
model = SentenceClassifier(config.MODEL, cfg["num_labels"])
model.freeze(cfg["frozen"])
batches = make_batches(cfg, config.MODEL["vocab_size"], gen)
train(model, batches, cfg)
