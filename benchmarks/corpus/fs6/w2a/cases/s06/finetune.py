import compat  # noqa: F401

import torch
from transformers import GPT2Config, GPT2LMHeadModel

MODEL_CONFIG = dict(
    vocab_size=512,
    n_positions=64,
    n_embd=64,
    n_layer=2,
    n_head=4,
)

TRAIN_CONFIG = {
    "trainable": ["lm_head"],
    "lr": 5e-3,
    "weight_decay": 0.0,
    "epochs": 2,
    "batch_size": 4,
    "seq_len": 24,
    "num_batches": 4,
}


def load_model():
    config = GPT2Config(**MODEL_CONFIG)
    return GPT2LMHeadModel(config)


def freeze_except(model, trainable):
    for param in model.parameters():
        param.requires_grad = False
    for name in trainable:
        for param in getattr(model, name).parameters():
            param.requires_grad = True


def build_optimizer(model, cfg):
    params = [p for name in cfg["trainable"] for p in getattr(model, name).parameters()]
    return torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=cfg["weight_decay"])


def make_batches(cfg, vocab):
    g = torch.Generator().manual_seed(7)
    return [torch.randint(0, vocab, (cfg["batch_size"], cfg["seq_len"]), generator=g)
            for _ in range(cfg["num_batches"])]


def train(model, cfg):
    optimizer = build_optimizer(model, cfg)
    batches = make_batches(cfg, MODEL_CONFIG["vocab_size"])
    model.train()
    for epoch in range(cfg["epochs"]):
        total = 0.0
        for input_ids in batches:
            out = model(input_ids=input_ids, labels=input_ids)
            optimizer.zero_grad()
            out.loss.backward()
            optimizer.step()
            total += out.loss.item()
        print(f"epoch {epoch}: loss {total / len(batches):.4f}")


def main():
    torch.manual_seed(0)
    model = load_model()
    freeze_except(model, TRAIN_CONFIG["trainable"])
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters: {n_train}")
    train(model, TRAIN_CONFIG)
    return model


if __name__ == "__main__":
    model = main()
