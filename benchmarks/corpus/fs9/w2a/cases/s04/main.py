import torch

from net import TextCNN
from trainer import Trainer

CONFIG = {
    "vocab_size": 500,
    "embed_dim": 24,
    "num_filters": 8,
    "kernel_sizes": [3, 4, 5],
    "num_classes": 2,
    "lr": 1.0,
    "clip": 3.0,
    "epochs": 4,
}


def load_data(num_batches, batch_size, seq_len, vocab_size, generator):
    data = []
    for _ in range(num_batches):
        tokens = torch.randint(1, vocab_size, (batch_size, seq_len), generator=generator)
        labels = (tokens[:, :5].float().mean(1) > vocab_size / 2).long()
        data.append((tokens, labels))
    return data


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
model = TextCNN(CONFIG["vocab_size"], CONFIG["embed_dim"], CONFIG["num_filters"],
                CONFIG["kernel_sizes"], CONFIG["num_classes"])
trainer = Trainer(model, CONFIG["lr"], CONFIG["clip"])
batches = load_data(10, 16, 30, CONFIG["vocab_size"], gen)
for epoch in range(CONFIG["epochs"]):
    loss, acc = trainer.train_epoch(batches)
    print(f"epoch {epoch}: loss {loss:.4f} acc {acc:.3f}")
