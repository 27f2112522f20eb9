import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification

MODEL_CFG = dict(vocab_size=500, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128, max_position_embeddings=64, num_labels=3)
TRAIN_CFG = dict(steps=6, batch_size=4, seq_len=24, lr=5e-4, warmup=2, max_grad_norm=1.0,
                 gradient_checkpointing=True)


def build(model_cfg, train_cfg):
    config = BertConfig(**model_cfg)
    model = BertForSequenceClassification(config)
    if train_cfg["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=train_cfg["lr"])
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / train_cfg["warmup"]))
    return model, optimizer, scheduler


def batches(cfg, vocab):
    for _ in range(cfg["steps"]):
        ids = torch.randint(1, vocab, (cfg["batch_size"], cfg["seq_len"]))
        mask = torch.ones_like(ids)
        mask[:, cfg["seq_len"] // 2:] = torch.randint(0, 2, (cfg["batch_size"], 1))
        ids.masked_fill_(mask == 0, 0)
        labels = torch.randint(0, 3, (cfg["batch_size"],))
        yield {"input_ids": ids, "attention_mask": mask, "labels": labels}


def train():
    model, optimizer, scheduler = build(MODEL_CFG, TRAIN_CFG)
    model.train()
    for step, batch in enumerate(batches(TRAIN_CFG, MODEL_CFG["vocab_size"])):
        out = model(**batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), TRAIN_CFG["max_grad_norm"])
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        print(f"step {step}  loss {out.loss.item():.4f}  lr {scheduler.get_last_lr()[0]:.2e}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = train()
