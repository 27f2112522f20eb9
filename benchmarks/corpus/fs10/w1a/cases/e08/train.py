import torch
import torch.nn.functional as F

from layers import EvolveGCNH

SETTINGS = {
    "num_nodes": 20,
    "node_features": 4,
    "snapshots": 6,
    "num_edges": 60,
    "epochs": 4,
    "lr": 0.01,
    "state_reset_every": 2,
}


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_count, node_features):
        super().__init__()
        self.recurrent = EvolveGCNH(node_count, node_features)
        self.linear = torch.nn.Linear(node_features, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        return self.linear(h)


def make_dataset(cfg):
    g = torch.Generator().manual_seed(1)
    snapshots = []
    for _ in range(cfg["snapshots"]):
        edge_index = torch.randint(0, cfg["num_nodes"], (2, cfg["num_edges"]), generator=g)
        edge_weight = torch.rand(cfg["num_edges"], generator=g)
        x = torch.randn(cfg["num_nodes"], cfg["node_features"], generator=g)
        y = torch.randn(cfg["num_nodes"], generator=g)
        snapshots.append((x, edge_index, edge_weight, y))
    return snapshots


def main():
    torch.manual_seed(0)
    dataset = make_dataset(SETTINGS)
    model = RecurrentGCN(SETTINGS["num_nodes"], SETTINGS["node_features"])
    optimizer = torch.optim.Adam(model.parameters(), lr=SETTINGS["lr"])
    model.train()
    for epoch in range(SETTINGS["epochs"]):
        loss = 0
        for time, (x, edge_index, edge_weight, y) in enumerate(dataset):
            y_hat = model(x, edge_index, edge_weight)
            loss = loss + torch.mean((y_hat.squeeze(-1) - y) ** 2)
        loss = loss / (time + 1)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if epoch % SETTINGS["state_reset_every"] == 0:
            model.recurrent.reset_parameters()
        print(f"epoch {epoch} mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
