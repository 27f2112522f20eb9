import compat
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup

from checkpoint import ensure_checkpoint


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default=None)
    parser.add_argument("--train_batch_size", type=int, default=16)
    parser.add_argument("--learning_rate", type=float, default=5e-4)
    parser.add_argument("--num_train_epochs", type=int, default=2)
    parser.add_argument("--warmup_steps", type=int, default=2)
    parser.add_argument("--max_grad_norm", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args()


def load_examples(n=64, seq_len=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(5, 500, (n, seq_len), generator=g)
    input_ids[:, 0] = 2
    attention_mask = torch.ones_like(input_ids)
    labels = (input_ids[:, 1:6].float().mean(1) > 250).long()
    return TensorDataset(input_ids, attention_mask, labels)


def train(args, train_dataset, model):
    loader = DataLoader(train_dataset, batch_size=args.train_batch_size, shuffle=True)
    t_total = len(loader) * args.num_train_epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    scheduler = get_linear_schedule_with_warmup(optimizer, args.warmup_steps, t_total)
    global_step, tr_loss = 0, 0.0
    for epoch in range(args.num_train_epochs):
        for batch in loader:
            inputs = {"input_ids": batch[0], "attention_mask": batch[1], "labels": batch[2]}
            outputs = model(**inputs)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            tr_loss += loss.item()
            global_step += 1
        print(f"epoch {epoch}: avg loss {tr_loss / global_step:.4f}")
    return global_step, tr_loss / global_step


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    model_path = args.model_name_or_path or ensure_checkpoint()
    model = AutoModelForSequenceClassification.from_pretrained(model_path)
    train_dataset = load_examples()
    global_step, avg_loss = train(args, train_dataset, model)
    print(f"global_step = {global_step}, average loss = {avg_loss:.4f}")
    return model


if __name__ == "__main__":
    model = main()
