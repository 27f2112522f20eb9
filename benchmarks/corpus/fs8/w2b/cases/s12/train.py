import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification

from data import make_batches
from evaluation import evaluate

HPARAMS = {
    "vocab_size": 500,
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 128,
    "hidden_dropout_prob": 0.1,
    "attention_probs_dropout_prob": 0.1,
    "num_labels": 3,
    "seq_len": 24,
    "batch_size": 8,
    "epochs": 2,
    "train_batches": 4,
    "eval_every": 3,
    "lr": 3e-4,
}


def build_model(hp):
    config = BertConfig(
        vocab_size=hp["vocab_size"],
        hidden_size=hp["hidden_size"],
        num_hidden_layers=hp["num_hidden_layers"],
        num_attention_heads=hp["num_attention_heads"],
        intermediate_size=hp["intermediate_size"],
        hidden_dropout_prob=hp["hidden_dropout_prob"],
        attention_probs_dropout_prob=hp["attention_probs_dropout_prob"],
        num_labels=hp["num_labels"],
    )
    return BertForSequenceClassification(config)


def train(model, train_batches, val_batches, hp):
    optimizer = torch.optim.AdamW(model.parameters(), lr=hp["lr"], weight_decay=0.01)
    global_step = 0
    model.train()
    for epoch in range(hp["epochs"]):
        for batch in train_batches:
            out = model(**batch)
            optimizer.zero_grad()
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            global_step += 1
            if global_step % hp["eval_every"] == 0:
                acc = evaluate(model, val_batches)
                print(f"step {global_step}: loss {out.loss.item():.4f} val_acc {acc:.3f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    args = (HPARAMS["seq_len"], HPARAMS["vocab_size"], HPARAMS["num_labels"], gen)
    train_batches = make_batches(HPARAMS["train_batches"], HPARAMS["batch_size"], *args)
    val_batches = make_batches(2, HPARAMS["batch_size"], *args)
    model = build_model(HPARAMS)
    model = train(model, train_batches, val_batches, HPARAMS)
