import torch
import torch.nn as nn

from network import ExpandableMLP, protect_old_neurons

CONFIG = {
    "in_dim": 12,
    "hidden": 16,
    "out_dim": 3,
    "tasks": 2,
    "grow_per_task": 8,
    "epochs": 5,
    "lr": 0.1,
    "momentum": 0.0,
    "weight_decay": 5e-3,
}


def make_task(task_id, n=128):
    g = torch.Generator().manual_seed(100 + task_id)
    x = torch.randn(n, CONFIG["in_dim"], generator=g)
    w = torch.randn(CONFIG["in_dim"], CONFIG["out_dim"], generator=g)
    y = (x @ w).argmax(dim=1)
    return list(zip(x.split(32), y.split(32)))


def build_optimizer(model):
    return torch.optim.SGD(model.parameters(), lr=CONFIG["lr"], momentum=CONFIG["momentum"],
                           weight_decay=CONFIG["weight_decay"])


def train_task(model, batches, epochs):
    optimizer = build_optimizer(model)
    criterion = nn.CrossEntropyLoss()
    for _ in range(epochs):
        for x, y in batches:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    model = ExpandableMLP(CONFIG["in_dim"], CONFIG["hidden"], CONFIG["out_dim"])
    handles = []
    for task_id in range(CONFIG["tasks"]):
        if task_id > 0:
            for h in handles:
                h.remove()
            n_old = model.add_neurons(CONFIG["grow_per_task"])
            handles = protect_old_neurons(model, n_old)
        loss = train_task(model, make_task(task_id), CONFIG["epochs"])
        print(f"task {task_id}: hidden={model.fc1.out_features} loss={loss:.4f}")
    return model


if __name__ == "__main__":
    model = main()
