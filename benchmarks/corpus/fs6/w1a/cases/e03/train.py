import torch
from torch.utils.data import DataLoader, Dataset

from model import HomographyNet, photometric_loss

CONFIG = {
    "num_pairs": 10,
    "size": 32,
    "batch_size": 3,
    "epochs": 2,
    "lr": 1e-3,
}


class PairDataset(Dataset):
    def __init__(self, n, size, seed=0):
        g = torch.Generator().manual_seed(seed)
        base = torch.rand(n, 1, size + 4, size + 4, generator=g)
        self.a = base[:, :, 2:-2, 2:-2]
        self.b = base[:, :, 1:-3, 3:-1]

    def __len__(self):
        return self.a.shape[0]

    def __getitem__(self, i):
        return self.a[i], self.b[i]


def main(cfg):
    torch.manual_seed(0)
    data = PairDataset(cfg["num_pairs"], cfg["size"])
    loader = DataLoader(data, batch_size=cfg["batch_size"], shuffle=True,
                        generator=torch.Generator().manual_seed(0))
    model = HomographyNet()
    model(torch.zeros(2, 1, cfg["size"], cfg["size"]), torch.zeros(2, 1, cfg["size"], cfg["size"]))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for img_a, img_b in loader:
            warped, _ = model(img_a, img_b)
            loss = photometric_loss(warped, img_a)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")


if __name__ == "__main__":
    main(CONFIG)
