import torch
import torch.nn.functional as F

from model import SetTransformerReadout

IN_DIM = 8


def pad_graphs(node_feats):
    lengths = torch.tensor([f.size(0) for f in node_feats])
    out = torch.zeros(len(node_feats), int(lengths.max()), IN_DIM)
    for i, f in enumerate(node_feats):
        out[i, : f.size(0)] = f
    return out, lengths


def sample_graphs(g, n_graphs=8):
    graphs, labels = [], []
    for _ in range(n_graphs):
        n = int(torch.randint(3, 12, (1,), generator=g))
        y = int(torch.randint(0, 3, (1,), generator=g))
        graphs.append(torch.randn(n, IN_DIM, generator=g) + y)
        labels.append(y)
    return graphs, torch.tensor(labels)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(9)
    model = SetTransformerReadout(IN_DIM)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        total = 0.0
        for _ in range(5):
            graphs, y = sample_graphs(g)
            feats, lengths = pad_graphs(graphs)
            loss = F.cross_entropy(model(feats, lengths), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}  loss {total / 5:.4f}")
    return model


if __name__ == "__main__":
    model = main()
