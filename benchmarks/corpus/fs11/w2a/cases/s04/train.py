import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification

from grad_utils import register_grad_clipping

TRAIN_CONFIG = {
    "num_labels": 3,
    "seq_len": 16,
    "batch_size": 8,
    "steps": 6,
    "learning_rate": 2e-4,
    "max_grad_value": 0.1,
}


def build_model(cfg):
    config = BertConfig(
        vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64, num_labels=cfg["num_labels"],
    )
    return BertForSequenceClassification(config)


def get_batch(gen, cfg, vocab_size):
    input_ids = torch.randint(1, vocab_size, (cfg["batch_size"], cfg["seq_len"]), generator=gen)
    attention_mask = torch.ones_like(input_ids)
    labels = torch.randint(0, cfg["num_labels"], (cfg["batch_size"],), generator=gen)
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def train(model, cfg):
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["learning_rate"])
    if cfg.get("max_grad_value"):
        register_grad_clipping(model, cfg["max_grad_value"])
    gen = torch.Generator().manual_seed(11)
    model.train()
    for step in range(cfg["steps"]):
        batch = get_batch(gen, cfg, model.config.vocab_size)
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 4 == 0:
            print(f"step {step} loss {outputs.loss.item():.4f}")
    return model


torch.manual_seed(0)
model = build_model(TRAIN_CONFIG)
model = train(model, TRAIN_CONFIG)
