import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from optim import build_optimizer

ARGS = dict(vocab_size=200, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128, num_labels=3, seq_len=24, batch_size=8, num_train_epochs=2,
            steps_per_epoch=5, learning_rate=5e-4, weight_decay=0.01, warmup_steps=2,
            max_grad_norm=1.0, seed=42)


def make_split(args, n, g):
    labels = torch.randint(0, args["num_labels"], (n,), generator=g)
    ids = torch.randint(5, args["vocab_size"], (n, args["seq_len"]), generator=g)
    ids[:, 0] = 1
    ids[:, 1] = 2 + labels
    mask = torch.ones_like(ids)
    mask[n // 2:, -4:] = 0
    return [{"input_ids": ids[i:i + args["batch_size"]],
             "attention_mask": mask[i:i + args["batch_size"]],
             "labels": labels[i:i + args["batch_size"]]}
            for i in range(0, n, args["batch_size"])]


def main(args):
    torch.manual_seed(args["seed"])
    g = torch.Generator().manual_seed(args["seed"])
    config = BertConfig(vocab_size=args["vocab_size"], hidden_size=args["hidden_size"],
                        num_hidden_layers=args["num_hidden_layers"],
                        num_attention_heads=args["num_attention_heads"],
                        intermediate_size=args["intermediate_size"], num_labels=args["num_labels"])
    model = BertForSequenceClassification(config)
    train_batches = make_split(args, args["steps_per_epoch"] * args["batch_size"], g)
    eval_batches = make_split(args, 16, g)

    optimizer = build_optimizer(model, args["learning_rate"], args["weight_decay"])
    max_train_steps = args["num_train_epochs"] * len(train_batches)
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, args["warmup_steps"], max_train_steps)

    for epoch in range(args["num_train_epochs"]):
        model.train()
        for batch in train_batches:
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        model.eval()
        correct = 0
        for batch in eval_batches:
            with torch.no_grad():
                logits = model(**batch).logits
            correct += (logits.argmax(-1) == batch["labels"]).sum().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} eval acc {correct / 16:.3f} "
              f"lr {lr_scheduler.get_last_lr()}")


if __name__ == "__main__":
    main(ARGS)
