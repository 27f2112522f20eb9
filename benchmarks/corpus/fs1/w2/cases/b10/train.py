import torch

from executor import Executor
from kws_model import KWSModel, max_pooling_loss

CONFIGS = {"optim_conf": {"lr": 1e-3}, "grad_clip": 5, "log_interval": 5, "max_epoch": 2}


def make_loader(n_batches, g, batch=8, T=40, idim=40):
    data = []
    for _ in range(n_batches):
        target = torch.randint(0, 2, (batch,), generator=g)
        feats = torch.randn(batch, T, idim, generator=g)
        feats[target == 1, 15:25] += 1.0
        lengths = torch.randint(30, T + 1, (batch,), generator=g)
        data.append((feats, target, lengths))
    return data


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(2)
    model = KWSModel()
    optimizer = torch.optim.Adam(model.parameters(), **CONFIGS["optim_conf"])
    train_loader, cv_loader = make_loader(12, g), make_loader(3, g)
    executor = Executor()
    for epoch in range(CONFIGS["max_epoch"]):
        executor.train(model, optimizer, train_loader, max_pooling_loss, CONFIGS)
        cv_loss = executor.cv(model, cv_loader, max_pooling_loss)
        print(f"Epoch {epoch} CV info cv_loss {cv_loss:.6f}")
    return model, optimizer, executor


if __name__ == "__main__":
    model, optimizer, executor = main()
