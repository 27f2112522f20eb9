import torch
import torch.nn.functional as F

from model import RelationalAggregator


def train_epoch(model, optimizer, data):
    total = 0.0
    for node_feats, neigh_feats, rel_ids, y in data:
        loss = F.mse_loss(model(node_feats, neigh_feats, rel_ids), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(data)


def main():
    torch.manual_seed(0)
    model = RelationalAggregator(numfeatures=12, numrel=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = [(torch.randn(16, 12), torch.randn(16, 5, 12), torch.randint(0, 4, (16, 5)), torch.randn(16))
            for _ in range(6)]
    rel0_before = model.list_relations[0].weight.detach().clone()
    for epoch in range(3):
        print(f"epoch {epoch}: loss {train_epoch(model, optimizer, data):.4f}")
    n_params = sum(p.numel() for p in model.parameters())
    changed = not torch.equal(rel0_before, model.list_relations[0].weight)
    print(f"parameters registered: {n_params}; relation-0 layer changed: {changed}")


if __name__ == "__main__":
    main()
