import torch
from torch.utils.data import DataLoader

from data import MultiTaskPropertyDataset
from losses import MaskedMSELoss
from model import FFNRegressor

HPARAMS = dict(n_features=32, n_tasks=4, batch_size=16, epochs=2, lr=1e-3, seed=11)


def run_epoch(model, loader, loss_fn, optimizer):
    model.train()
    total, n = 0.0, 0
    for x, y in loader:
        preds = model(x)
        loss = loss_fn(preds, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(x)
        n += len(x)
    return total / n


def main():
    torch.manual_seed(HPARAMS["seed"])
    train_set = MultiTaskPropertyDataset(256, HPARAMS["n_features"], HPARAMS["n_tasks"],
                                         missing_from=160, seed=1)
    loader = DataLoader(train_set, batch_size=HPARAMS["batch_size"], shuffle=False)
    model = FFNRegressor(HPARAMS["n_features"], HPARAMS["n_tasks"])
    loss_fn = MaskedMSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=HPARAMS["lr"])
    for epoch in range(HPARAMS["epochs"]):
        train_loss = run_epoch(model, loader, loss_fn, optimizer)
        print(f"epoch {epoch} train_loss {train_loss:.4f}")
    return model


if __name__ == "__main__":
    model = main()
