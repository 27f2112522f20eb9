import torch
import torch.nn.functional as F

from model import VideoClassifier


def train_one_epoch(model, optimizer, loader):
    model.train()
    for step, (clips, labels) in enumerate(loader):
        logits = model(clips)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VideoClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = [(torch.randn(2, 4, 5, 48), torch.randint(0, 7, (2,))) for _ in range(3)]
    train_one_epoch(model, optimizer, loader)
