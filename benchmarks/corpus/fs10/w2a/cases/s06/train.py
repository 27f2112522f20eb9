import torch
import torch.nn.functional as F

from model import DeepSupervisionNet

CFG = dict(num_classes=6, width=16, aux_weight=0.4, lr=0.05, epochs=3, steps=4, batch_size=16)


def loaders(cfg):
    g = torch.Generator().manual_seed(5)
    return [(torch.randn(cfg["batch_size"], 3, 32, 32, generator=g),
             torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g))
            for _ in range(cfg["steps"])]


def train(model, data, cfg):
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9, nesterov=True)
    for epoch in range(cfg["epochs"]):
        model.train()
        for x, y in data:
            out, aux = model(x)
            loss = F.cross_entropy(out, y) + F.cross_entropy(aux, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return opt


def main():
    torch.manual_seed(0)
    model = DeepSupervisionNet(CFG["num_classes"], CFG["width"], CFG["aux_weight"])
    opt = train(model, loaders(CFG), CFG)
    model.eval()
    with torch.no_grad():
        x, y = loaders(CFG)[0]
        acc = (model(x).argmax(1) == y).float().mean().item()
    print(f"train-batch acc {acc:.3f}")
    return model, opt


if __name__ == "__main__":
    model, opt = main()
