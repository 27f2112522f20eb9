import argparse

import torch

import compat  # noqa: F401
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from data import RandomTextDataset


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", type=int, default=4)
    p.add_argument("--accumulation_steps", type=int, default=3)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    return p.parse_args()


def build_model(num_labels):
    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=64, num_labels=num_labels)
    return BertForSequenceClassification(config)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for batch in loader:
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
        correct += (logits.argmax(-1) == batch["labels"]).sum().item()
        total += batch["labels"].numel()
    model.train()
    return correct / total


def train(args):
    torch.manual_seed(0)
    model = build_model(num_labels=3)
    train_ds = RandomTextDataset(16, 12, 200, 3, seed=1)
    eval_ds = RandomTextDataset(4, 12, 200, 3, seed=2)
    train_loader = torch.utils.data.DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    eval_loader = torch.utils.data.DataLoader(eval_ds, batch_size=args.batch_size)

    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.lr)
    updates_per_epoch = -(-len(train_loader) // args.accumulation_steps)
    scheduler = get_linear_schedule_with_warmup(optimizer, 2, updates_per_epoch * args.epochs)

    model.train()
    model.zero_grad()
    global_step = 0
    for epoch in range(args.epochs):
        for step, batch in enumerate(train_loader):
            outputs = model(**batch)
            loss = outputs.loss / args.accumulation_steps
            loss.backward()
            if (step + 1) % args.accumulation_steps == 0 or step + 1 == len(train_loader):
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
                scheduler.step()
                model.zero_grad()
                global_step += 1
        acc = evaluate(model, eval_loader)
        print(f"epoch {epoch} updates {global_step} eval_acc {acc:.3f}")
    return model


if __name__ == "__main__":
    model = train(parse_args())
