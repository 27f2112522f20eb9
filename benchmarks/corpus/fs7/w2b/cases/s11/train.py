import torch

from model import RecurrentGCN

torch.manual_seed(0)

NUM_NODES = 20
NUM_FEATURES = 4
NUM_SNAPSHOTS = 8


class Snapshot:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x = x
        self.edge_index = edge_index
        self.edge_attr = edge_attr
        self.y = y


def make_signal():
    src = torch.arange(NUM_NODES)
    dst = (src + 1) % NUM_NODES
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    snapshots = []
    for _ in range(NUM_SNAPSHOTS):
        x = torch.randn(NUM_NODES, NUM_FEATURES)
        edge_attr = torch.rand(edge_index.size(1))
        y = x.sum(dim=1) * 0.5 + 0.1 * torch.randn(NUM_NODES)
        snapshots.append(Snapshot(x, edge_index, edge_attr, y))
    return snapshots[:6], snapshots[6:]


train_dataset, test_dataset = make_signal()

model = RecurrentGCN(node_features=NUM_FEATURES)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

model.train()
for epoch in range(20):
    cost = 0
    for time, snapshot in enumerate(train_dataset):
        y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
        cost = cost + torch.mean((y_hat.squeeze() - snapshot.y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()

model.eval()
cost = 0
with torch.no_grad():
    for time, snapshot in enumerate(test_dataset):
        y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
        cost = cost + torch.mean((y_hat.squeeze() - snapshot.y) ** 2)
cost = cost / (time + 1)
print("MSE: {:.4f}".format(cost.item()))
