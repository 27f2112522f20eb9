import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from data import make_batches

args = {
    "num_labels": 3,
    "lr": 5e-4,
    "weight_decay": 0.01,
    "warmup_ratio": 0.1,
    "epochs": 2,
    "gradient_checkpointing": True,
    "max_grad_norm": 1.0,
}


def build_model(num_labels):
    config = BertConfig(
        vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64, num_labels=num_labels, use_cache=False,
    )
    return BertForSequenceClassification(config)


def grouped_parameters(model, weight_decay):
    no_decay = ["bias", "LayerNorm.weight"]
    return [
        {
            "params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
            "weight_decay": weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
            "weight_decay": 0.0,
        },
    ]


def main():
    torch.manual_seed(42)
    model = build_model(args["num_labels"])
    if args["gradient_checkpointing"]:
        model.activation_checkpointing_enable()
    batches = make_batches(n_batches=4, batch_size=4, seq_len=16, vocab=200, num_labels=args["num_labels"])

    optimizer = torch.optim.AdamW(grouped_parameters(model, args["weight_decay"]), lr=args["lr"])
    total_steps = len(batches) * args["epochs"]
    scheduler = get_linear_schedule_with_warmup(
        optimizer, int(args["warmup_ratio"] * total_steps), total_steps
    )

    model.train()
    for epoch in range(args["epochs"]):
        for step, batch in enumerate(batches):
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        print(f"epoch {epoch}: loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")
    return model


if __name__ == "__main__":
    model = main()
