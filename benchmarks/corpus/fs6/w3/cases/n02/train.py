import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from config import CONFIG
from model import BagOfEmbeddingsClassifier


def make_dataset(n, seq_len, vocab_size, num_labels):
    ids = torch.randint(1, vocab_size, (n, seq_len))
    ids[:, seq_len // 2:] *= (torch.rand(n, 1) > 0.3).long()
    labels = ids[:, 0] % num_labels
    return TensorDataset(ids, labels)


def evaluate(model, loader, accelerator):
    model.eval()
    correct, total = 0, 0
    for input_ids, labels in loader:
        with torch.no_grad():
            out = model(input_ids)
        preds = out["logits"].argmax(dim=-1)
        preds, labels = accelerator.gather_for_metrics((preds, labels))
        correct += (preds == labels).sum().item()
        total += labels.numel()
    model.train()
    return correct / max(total, 1)


def main(cfg):
    accelerator = Accelerator(
        cpu=True, gradient_accumulation_steps=cfg["gradient_accumulation_steps"]
    )
    set_seed(cfg["seed"])

    train_ds = make_dataset(256, 24, cfg["vocab_size"], cfg["num_labels"])
    eval_ds = make_dataset(64, 24, cfg["vocab_size"], cfg["num_labels"])
    train_loader = DataLoader(train_ds, batch_size=cfg["per_device_batch_size"], shuffle=True)
    eval_loader = DataLoader(eval_ds, batch_size=32)

    model = BagOfEmbeddingsClassifier(
        cfg["vocab_size"], cfg["embed_dim"], cfg["hidden_dim"], cfg["num_labels"]
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)
    num_update_steps = len(train_loader) // cfg["gradient_accumulation_steps"] * cfg["num_epochs"]
    scheduler = torch.optim.lr_scheduler.LinearLR(
        optimizer, start_factor=1.0, end_factor=0.1, total_iters=num_update_steps
    )

    model, optimizer, train_loader, eval_loader, scheduler = accelerator.prepare(
        model, optimizer, train_loader, eval_loader, scheduler
    )

    completed_steps = 0
    for epoch in range(cfg["num_epochs"]):
        model.train()
        running = 0.0
        for input_ids, labels in train_loader:
            with accelerator.accumulate(model):
                outputs = model(input_ids, labels=labels)
                loss = outputs["loss"]
                running += loss.detach().float()
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                completed_steps += 1
        acc = evaluate(model, eval_loader, accelerator)
        accelerator.print(
            f"epoch {epoch}: loss {running.item() / len(train_loader):.4f} "
            f"eval_acc {acc:.3f} steps {completed_steps}"
        )


if __name__ == "__main__":
    main(CONFIG)
