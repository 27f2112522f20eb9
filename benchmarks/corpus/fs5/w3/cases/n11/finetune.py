import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import compat  # noqa: F401
from accelerate import Accelerator
from accelerate.utils import set_seed

from model import SequenceClassifier

SCHEDULE = [
    {"epochs": 1, "train": ["head"], "lr": 3e-3},
    {"epochs": 1, "train": ["head", "block2"], "lr": 1e-3},
    {"epochs": 2, "train": ["head", "block2", "block1", "block0"], "lr": 5e-4},
]


def make_loader(n=128, seq=24, vocab=120, classes=4, bs=16):
    ids = torch.randint(1, vocab, (n, seq))
    labels = ids[:, :4].remainder(classes)[:, 0]
    return DataLoader(TensorDataset(ids, labels), batch_size=bs, shuffle=True)


def set_trainable(model, names):
    groups = model.param_groups()
    for name, module in groups.items():
        module.requires_grad_(name in names)


def build_optimizer(model, lr):
    params = [p for p in model.parameters() if p.requires_grad]
    return torch.optim.AdamW(params, lr=lr, weight_decay=0.01)


def run(schedule=SCHEDULE):
    accelerator = Accelerator(cpu=True)
    model = SequenceClassifier()
    loader = make_loader()
    model, loader = accelerator.prepare(model, loader)
    for stage_idx, stage in enumerate(schedule):
        set_trainable(accelerator.unwrap_model(model), stage["train"])
        optimizer = accelerator.prepare(build_optimizer(model, stage["lr"]))
        model.train()
        for epoch in range(stage["epochs"]):
            for ids, labels in loader:
                loss = F.cross_entropy(model(ids), labels)
                optimizer.zero_grad()
                accelerator.backward(loss)
                optimizer.step()
        n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
        accelerator.print(f"stage {stage_idx} trainable {n_train} loss {loss.item():.4f}")
    return accelerator, model


if __name__ == "__main__":
    set_seed(3)
    accelerator, model = run()
