import torch
import torch.nn.functional as F

from classifier import build_victim
from patch import AdversarialPatch

CONFIG = {
    "patch_size": 8,
    "patch_init": "zeros",
    "target_class": 3,
    "steps": 20,
    "lr": 0.05,
    "batch_size": 16,
}


def random_locations(n, image_size, patch_size, generator):
    hi = image_size - patch_size
    return torch.randint(0, hi + 1, (n, 2), generator=generator)


def train_patch(victim, patch, cfg):
    optimizer = torch.optim.Adam(patch.parameters(), lr=cfg["lr"])
    g = torch.Generator().manual_seed(11)
    target = torch.full((cfg["batch_size"],), cfg["target_class"], dtype=torch.long)
    for step in range(cfg["steps"]):
        images = torch.rand(cfg["batch_size"], 3, 32, 32, generator=g)
        locs = random_locations(cfg["batch_size"], 32, cfg["patch_size"], g)
        logits = victim(patch(images, locs))
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            success = (logits.argmax(1) == target).float().mean().item()
            print(f"step {step}: loss {loss.item():.4f} success {success:.2f}")
    return optimizer


def main():
    torch.manual_seed(0)
    victim = build_victim()
    victim.eval()
    for p in victim.parameters():
        p.requires_grad_(False)
    patch = AdversarialPatch(CONFIG["patch_size"], init=CONFIG["patch_init"])
    optimizer = train_patch(victim, patch, CONFIG)
    return victim, patch, optimizer


if __name__ == "__main__":
    victim, patch, optimizer = main()
