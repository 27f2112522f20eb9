import argparse

import torch
import torch.nn.functional as F

from modeling import TinyEncoderClassifier

MODEL_CFG = {"vocab": 500, "d_model": 64, "n_heads": 4, "d_ff": 128, "n_layers": 2, "n_labels": 3}


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--task_name", default="mnli")
    p.add_argument("--learning_rate", type=float, default=1e-3)
    p.add_argument("--weight_decay", type=float, default=0.01)
    p.add_argument("--batch_size", type=int, default=16)
    p.add_argument("--num_steps", type=int, default=40)
    p.add_argument("--adapter_reduction", type=int, default=4)
    return p.parse_args(argv)


def get_batches(args, seed=0):
    g = torch.Generator().manual_seed(seed)
    while True:
        lengths = torch.randint(6, 24, (args.batch_size,), generator=g)
        ids = torch.randint(1, MODEL_CFG["vocab"], (args.batch_size, 24), generator=g)
        ids[torch.arange(24)[None, :] >= lengths[:, None]] = 0
        labels = (ids[:, 0] % MODEL_CFG["n_labels"]).long()
        yield ids, labels


def build_optimizer(model, args):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") or "ln" in name or "norm" in name else decay).append(p)
    groups = [
        {"params": decay, "weight_decay": args.weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=args.learning_rate)


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(0)
    model = TinyEncoderClassifier(MODEL_CFG)
    optimizer = build_optimizer(model, args)
    model.add_adapter(args.task_name, reduction=args.adapter_reduction)
    model.train_adapter(args.task_name)
    n_trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters: {n_trainable}")

    model.train()
    batches = get_batches(args)
    for step in range(args.num_steps):
        ids, labels = next(batches)
        logits = model(ids)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0 or step == args.num_steps - 1:
            print(f"step {step:3d} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
