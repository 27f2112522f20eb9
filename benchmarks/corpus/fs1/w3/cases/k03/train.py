import compat  # noqa: F401
import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from data import SyntheticPairs

args = dict(
    epochs=2,
    per_device_batch_size=4,
    gradient_accumulation_steps=4,
    lr=5e-4,
    weight_decay=0.01,
    max_grad_norm=1.0,
)


def build_model():
    config = BertConfig(
        vocab_size=64,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=32,
        num_labels=2,
    )
    return BertForSequenceClassification(config)


def build_optimizer(model):
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": args["weight_decay"]},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=args["lr"])


if __name__ == "__main__":
    set_seed(0)
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=args["gradient_accumulation_steps"])
    model = build_model()
    optimizer = build_optimizer(model)
    train_loader = DataLoader(SyntheticPairs(48, 16, 64), batch_size=args["per_device_batch_size"], shuffle=True)
    num_update_steps = args["epochs"] * len(train_loader) // args["gradient_accumulation_steps"]
    scheduler = get_linear_schedule_with_warmup(optimizer, 1, num_update_steps)
    model, optimizer, train_loader, scheduler = accelerator.prepare(model, optimizer, train_loader, scheduler)

    for epoch in range(args["epochs"]):
        model.train()
        total = 0.0
        for batch in train_loader:
            with accelerator.accumulate(model):
                outputs = model(**batch)
                loss = outputs.loss
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            total += loss.item()
        accelerator.print(f"epoch {epoch}: loss {total / len(train_loader):.4f}")
