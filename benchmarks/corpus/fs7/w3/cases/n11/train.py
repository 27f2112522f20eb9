import compat  # noqa: F401

import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

config = {
    "gradient_accumulation_steps": 4,
    "per_device_batch_size": 4,
    "num_epochs": 2,
    "learning_rate": 1e-3,
    "max_grad_norm": 1.0,
    "seed": 42,
}


class TextClassifier(nn.Module):
    def __init__(self, vocab_size=100, emb_dim=32, num_classes=3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, emb_dim, mode="mean")
        self.fc = nn.Sequential(nn.Linear(emb_dim, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, input_ids):
        return self.fc(self.embedding(input_ids))


def training_function(cfg):
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=cfg["gradient_accumulation_steps"])
    set_seed(cfg["seed"])

    input_ids = torch.randint(0, 100, (64, 12))
    labels = torch.randint(0, 3, (64,))
    train_dataloader = DataLoader(TensorDataset(input_ids, labels), batch_size=cfg["per_device_batch_size"], shuffle=True)

    model = TextClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["learning_rate"])
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 / (1.0 + 0.1 * step))
    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, lr_scheduler
    )

    for epoch in range(cfg["num_epochs"]):
        model.train()
        total_loss = 0.0
        for step, (batch_ids, batch_labels) in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                logits = model(batch_ids)
                loss = F.cross_entropy(logits, batch_labels)
                total_loss += loss.detach().float()
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
        accelerator.print(f"epoch {epoch}: loss {total_loss.item() / len(train_dataloader):.4f}")
    accelerator.end_training()
    return accelerator.unwrap_model(model)


if __name__ == "__main__":
    model = training_function(config)
