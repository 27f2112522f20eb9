import torch
import torch.nn.functional as F

from snn import SpikingClassifier

CONFIG = {
    "channels": 20,
    "hidden": 64,
    "classes": 4,
    "window": 25,
    "batch": 16,
    "stateful": True,
    "epochs": 1,
    "windows_per_recording": 4,
    "lr": 2e-3,
}


def make_recordings(n, cfg, gen):
    """Poisson spike trains whose rates depend on the class."""
    labels = torch.randint(0, cfg["classes"], (n,), generator=gen)
    rates = torch.rand(cfg["classes"], cfg["channels"], generator=gen) * 0.3
    T = cfg["window"] * cfg["windows_per_recording"]
    p = rates[labels].unsqueeze(0).expand(T, -1, -1)
    spikes = (torch.rand(T, n, cfg["channels"], generator=gen) < p).float()
    return spikes, labels


def train(cfg):
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = SpikingClassifier(cfg["channels"], cfg["hidden"], cfg["classes"],
                              stateful=cfg["stateful"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    spikes, labels = make_recordings(cfg["batch"], cfg, gen)
    for epoch in range(cfg["epochs"]):
        model.reset()
        for w, window in enumerate(spikes.split(cfg["window"], dim=0)):
            logits = model(window)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} window {w} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = train(CONFIG)
