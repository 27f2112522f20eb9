import compat  # noqa: F401

import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForTokenClassification, get_linear_schedule_with_warmup

TRAINING_ARGS = {
    "num_labels": 5,
    "max_len": 24,
    "num_examples": 32,
    "batch_size": 8,
    "epochs": 2,
    "learning_rate": 5e-4,
    "warmup_steps": 2,
    "gradient_checkpointing": True,
}


def make_batch_data(n, max_len, vocab_size, num_labels, seed=0):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(6, max_len + 1, (n,), generator=g)
    input_ids = torch.randint(5, vocab_size, (n, max_len), generator=g)
    attention_mask = (torch.arange(max_len)[None, :] < lengths[:, None]).long()
    input_ids = input_ids.masked_fill(attention_mask == 0, 0)
    labels = torch.randint(0, num_labels, (n, max_len), generator=g)
    labels[attention_mask == 0] = -100
    labels[:, 0] = -100
    return TensorDataset(input_ids, attention_mask, labels)


def main(args):
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=200, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, max_position_embeddings=64, num_labels=args["num_labels"],
    )
    model = BertForTokenClassification(config)
    if args["gradient_checkpointing"]:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})

    ds = make_batch_data(args["num_examples"], args["max_len"], config.vocab_size, args["num_labels"])
    loader = DataLoader(ds, batch_size=args["batch_size"], shuffle=True, generator=torch.Generator().manual_seed(0))

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=args["learning_rate"])
    total = len(loader) * args["epochs"]
    scheduler = get_linear_schedule_with_warmup(optimizer, args["warmup_steps"], total)

    model.train()
    for epoch in range(args["epochs"]):
        for input_ids, attention_mask, labels in loader:
            outputs = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
            outputs.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        print(f"epoch {epoch} loss {outputs.loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")
    return model


if __name__ == "__main__":
    model = main(TRAINING_ARGS)
