import torch
import torch.nn.functional as F

from compression import L1FilterPruner, ModelSpeedup
from model import VGGSmall

config = {
    "epochs": 4,
    "prune_epoch": 1,
    "sparsity": 0.5,
    "lr": 0.05,
    "batch_size": 16,
}


def get_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = (x[:, 0].mean(dim=(1, 2)) > 0).long() + 2 * (x[:, 1].mean(dim=(1, 2)) > 0).long()
    return x, y


def train(model, optimizer, data, epoch):
    model.train()
    x, y = data
    perm = torch.randperm(x.shape[0])
    for i in range(0, x.shape[0], config["batch_size"]):
        idx = perm[i:i + config["batch_size"]]
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x[idx]), y[idx])
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")


@torch.no_grad()
def test(model, data):
    model.eval()
    x, y = data
    return (model(x).argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VGGSmall(num_classes=4)
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"], momentum=0.9, weight_decay=5e-4)
    train_data, test_data = get_data(64, 1), get_data(32, 2)

    for epoch in range(config["epochs"]):
        if epoch == config["prune_epoch"]:
            masks = L1FilterPruner(model, config["sparsity"]).compress()
            ModelSpeedup(model, masks).speedup_model()
            print("pruned model:", sum(p.numel() for p in model.parameters()), "parameters")
        train(model, optimizer, train_data, epoch)
        print(f"  test acc {test(model, test_data):.3f}")
